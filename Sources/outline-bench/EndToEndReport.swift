import Foundation

enum EndToEndReport {
  static func table(_ options: Options, _ paths: Paths) -> Table {
    let n = options.quick ? 300 : 3_000
    let m = options.quick ? 3_000 : 30_000
    var results: [WireResult] = []
    var missing: [String] = []
    var rowsAnswerBytes = 0

    if let echo = paths.compile("echo-server"), let c = try? LSPClient(executable: echo) {
      progressLog("e2e: C echo server")
      results.append(
        Wire.measure("floor: C echo server (bench/echo-server.c)", c, lockstep: n, pipelined: m) { i in
          #"{"jsonrpc":"2.0","id":\#(i + 1),"method":"outline/ping","params":{}}"#
        })
      c.close()
    } else {
      missing.append("bench/echo-server.c did not compile")
    }

    if let server = paths.server, let c = try? LSPClient(executable: server) {
      progressLog("e2e: outline-server")
      var rows = 0
      let file = paths.temp + "/e2e.yaml"
      _ = OpenBench.writeFile(file, megabytes: options.quick ? 1 : 10, rowsOut: &rows)
      c.call(Wire.initialize)
      c.send(Wire.initialized)
      let uri = "file://" + file
      c.call(#"{"jsonrpc":"2.0","id":1,"method":"openOutline","params":{"uri":"\#(uri)"}}"#)
      let groups = rows / 10
      var rng = SplitMix(seed: 7)
      let starts = (0..<max(n, m) + 100).map { _ in Int.random(in: 0..<(rows / 2), using: &rng) }
      let targets = (0..<max(n, m) + 100).map { _ in Int.random(in: 0..<groups, using: &rng) }
      results.append(
        Wire.measure("outline-server: unknown method (-32601)", c, lockstep: n, pipelined: m) { i in
          #"{"jsonrpc":"2.0","id":\#(i + 2),"method":"outline/ping","params":{}}"#
        })
      rowsAnswerBytes =
        c.call(
          #"{"jsonrpc":"2.0","id":1,"method":"visibleRows","params":{"uri":"\#(uri)","start":\#(starts[0]),"count":100}}"#
        )?.utf8.count ?? 0
      results.append(
        Wire.measure(
          "outline-server: visibleRows (100 rows)", c, lockstep: n, pipelined: m / 10,
          note: "\(rows) rows open"
        ) { i in
          #"{"jsonrpc":"2.0","id":\#(i + 2),"method":"visibleRows","params":{"uri":"\#(uri)","start":\#(starts[i]),"count":100}}"#
        })
      results.append(
        Wire.measure("outline-server: toggleSection", c, lockstep: n, pipelined: m) { i in
          #"{"jsonrpc":"2.0","id":\#(i + 2),"method":"toggleSection","params":{"uri":"\#(uri)","section":"g\#(targets[i])"}}"#
        })
      c.close()
    } else {
      missing.append("outline-server: not built (swift build -c release)")
    }

    // The floor of moving an answer as big as visibleRows' over stdio.
    if rowsAnswerBytes > 0, let echo = paths.compile("echo-server"),
      let c = try? LSPClient(executable: echo, arguments: ["\(rowsAnswerBytes - 40)"])
    {
      progressLog("e2e: C echo server, answers of \(rowsAnswerBytes) bytes")
      results.append(
        Wire.measure(
          "floor: C echo server answering \(rowsAnswerBytes) bytes (a visibleRows answer's size)", c, lockstep: n,
          pipelined: m / 10
        ) { i in
          #"{"jsonrpc":"2.0","id":\#(i + 1),"method":"outline/ping","params":{}}"#
        })
      c.close()
    }

    let hover =
      #"{"jsonrpc":"2.0","id":%d,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///nonexistent/a.c"},"position":{"line":0,"character":0}}}"#
    for name in ["clangd", "sourcekit-lsp"] {
      guard let exe = Paths.tool(name), let c = try? LSPClient(executable: exe) else {
        missing.append("\(name): not found in /opt/swift/usr/bin or PATH")
        continue
      }
      progressLog("e2e: \(name)")
      c.call(Wire.initialize)
      c.send(Wire.initialized)
      let k = name == "clangd" ? n : n / 3
      results.append(
        Wire.measure(
          "\(name): hover on an unopened file (an error answer)", c, lockstep: k, pipelined: m / 3,
          note: "toolchain's"
        ) { i in
          String(format: hover, i + 1)
        })
      c.close()
    }

    var t = Table(
      title: "3. End to end over stdio (LSP framing; lockstep \(n) requests, pipelined up to \(m))",
      header: ["server and request", "lockstep median", "lockstep p99", "median vs floor", "pipelined req/s"])
    let floor = results.first { $0.name.hasPrefix("floor: C echo server (") }
    for r in results {
      t.rows.append([
        r.name, fmtTime(r.median), fmtTime(r.p99), fmtRatio(r.median / (floor?.median ?? .nan)),
        String(format: "%.0f", r.throughput),
      ])
    }
    for x in missing { t.rows.append([x, "–", "–", "–", "–"]) }
    let ours = results.filter { $0.name.hasPrefix("outline-server") }
    let lsp = results.filter { $0.name.hasPrefix("clangd") || $0.name.hasPrefix("sourcekit") }
    if let floor {
      for r in ours {
        // The goals of each row: lockstep vs the floor, and pipelined toggles.
        let goal = r.name.contains("unknown") ? 1.2 : r.name.contains("visibleRows") ? 3.0 : 1.5
        let ratio = r.median / floor.median
        let below = lsp.allSatisfy { r.median < $0.median }
        var note =
          "\(r.name): lockstep \(fmtRatio(ratio)) the floor (goal ≤ \(String(format: "%.1f", goal))×: "
          + "\(ratio <= goal ? "met" : "NOT met")), \(below ? "below" : "NOT below") both LSP servers; pipelined "
          + "\(String(format: "%.0f", r.throughput)) req/s"
        if r.name.contains("toggleSection") {
          note += " (goal ≥ 100000: \(r.throughput >= 100_000 ? "met" : "NOT met"))"
        }
        if r.name.contains("visibleRows"), let sized = results.first(where: { $0.name.contains("answering") }) {
          note +=
            "; \(fmtRatio(r.median / sized.median)) the C echo server answering as many bytes, which moves the "
            + "answer over stdio and writes nothing"
        }
        t.notes.append(note + ".")
      }
    }
    progressLog("e2e: JSON cost in process")
    let cost = JSONCost.measure(quick: options.quick)
    let bound = 1e9 / max(cost.decodeRequest, cost.encodeToggle)
    t.notes.append(
      "In process, JSON alone (median): decoding a toggleSection request \(fmtTime(cost.decodeRequest)) "
        + "(simdjson), writing its answer \(fmtTime(cost.encodeToggle)) (JSONWriter; JSONEncoder "
        + "\(fmtTime(cost.encodeToggleFoundation))), writing a 100-row visibleRows answer "
        + "\(fmtTime(cost.encodeRows)) (JSONWriter over JSONValue; over typed rows \(fmtTime(cost.encodeRowsTyped)); "
        + "JSONEncoder \(fmtTime(cost.encodeRowsFoundation))). The reader thread decodes while the worker handles "
        + "and encodes, so toggleSection cannot pass ≈ \(String(format: "%.0f", bound)) req/s and visibleRows "
        + "≈ \(String(format: "%.0f", 1e9 / cost.encodeRows)) req/s, whatever the engine does.")
    progressLog("e2e: the server's own work in process")
    let server = ServerCost.measure(quick: options.quick)
    t.notes.append(
      "The server's own work in process (body parsed in place, the request's work, the framed reply written; "
        + "no pipe, no thread): unknown method \(fmtTime(server.unknownMethod)), toggleSection "
        + "\(fmtTime(server.toggleSection)), visibleRows (100 rows) \(fmtTime(server.visibleRows100)). "
        + "The rest of each end-to-end figure is the transport: pipes, wake-ups and the client.")
    return t
  }
}
