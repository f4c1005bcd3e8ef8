import Foundation

/// Latency and throughput of one kind of request over stdio.
struct WireResult {
  var name: String
  var median: Double  // ns
  var p99: Double  // ns
  var throughput: Double  // requests/s
  var note: String = ""
}

enum Wire {
  /// Lockstep: one request, wait for its answer, next. Returns the per-request times (ns).
  static func lockstep(_ client: LSPClient, count: Int, body: (Int) -> String) -> [Double] {
    var times: [Double] = []
    times.reserveCapacity(count)
    for i in 0..<count {
      let frame = LSPClient.frame(body(i))
      let t0 = nowNanos()
      client.write(frame)
      guard client.readResponse() != nil else { break }
      times.append(Double(nowNanos() - t0))
    }
    return times
  }

  /// Pipelined: a writer thread sends `count` requests back to back while
  /// this thread reads the answers. Returns requests per second.
  static func pipelined(_ client: LSPClient, count: Int, body: (Int) -> String) -> Double {
    var all: [UInt8] = []
    for i in 0..<count { all += LSPClient.frame(body(i)) }
    let bytes = all
    let t0 = nowNanos()
    let writer = Thread { client.write(bytes) }
    writer.start()
    var got = 0
    while got < count, client.readResponse() != nil { got += 1 }
    let dt = Double(nowNanos() - t0) / 1e9
    return Double(got) / dt
  }

  static func measure(
    _ name: String, _ client: LSPClient, lockstep n: Int, pipelined m: Int, note: String = "",
    body: @escaping (Int) -> String
  ) -> WireResult {
    // Warm up.
    _ = lockstep(client, count: min(50, n), body: body)
    let times = lockstep(client, count: n, body: body)
    let rate = pipelined(client, count: m, body: body)
    return WireResult(
      name: name, median: median(times), p99: percentile(times, 99), throughput: rate, note: note)
  }

  static let initialize =
    #"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{}}}"#
  static let initialized = #"{"jsonrpc":"2.0","method":"initialized","params":{}}"#
}
