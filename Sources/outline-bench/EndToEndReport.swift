import Foundation

enum EndToEndReport {
  /// One request kind of one server, measured in each placement.
  struct Row {
    var name: String
    var byPlacement: [Placement: WireResult] = [:]
  }

  static func table(_ options: Options, _ paths: Paths) -> Table {
    let n = options.quick ? 300 : 3_000
    let m = options.quick ? 3_000 : 30_000
    var rows: [Row] = []
    var missing: [String] = []
    var rowsAnswerBytes = 0
    var sizedBytes = 0
    let placements = Placement.available

    func record(_ placement: Placement, _ result: WireResult) {
      if let i = rows.firstIndex(where: { $0.name == result.name }) {
        rows[i].byPlacement[placement] = result
      } else {
        rows.append(Row(name: result.name, byPlacement: [placement: result]))
      }
    }

    for placement in placements {
      // Pipelined runs want the server's threads free to overlap with the client: two cores only.
      let pipelined = placement == .twoCores || placements.count == 1 ? m : 0
      if let echo = paths.compile("echo-server"),
        let c = placement.spawn({ try LSPClient(executable: echo) })
      {
        progressLog("e2e (\(placement.label)): C echo server")
        record(
          placement,
          Wire.measure("floor: C echo server (bench/echo-server.c)", c, lockstep: n, pipelined: pipelined) { i in
            #"{"jsonrpc":"2.0","id":\#(i + 1),"method":"outline/ping","params":{}}"#
          })
        c.close()
      } else if placement == placements[0] {
        missing.append("bench/echo-server.c did not compile")
      }

      if let server = paths.server, let c = placement.spawn({ try LSPClient(executable: server) }) {
        progressLog("e2e (\(placement.label)): outline-server")
        var rowCount = 0
        let file = paths.temp + "/e2e.yaml"
        _ = OpenBench.writeFile(file, megabytes: options.quick ? 1 : 10, rowsOut: &rowCount)
        c.call(Wire.initialize)
        c.send(Wire.initialized)
        let uri = "file://" + file
        c.call(#"{"jsonrpc":"2.0","id":1,"method":"openOutline","params":{"uri":"\#(uri)"}}"#)
        let groups = rowCount / 10
        var rng = SplitMix(seed: 7)
        let starts = (0..<max(n, m) + 100).map { _ in Int.random(in: 0..<(rowCount / 2), using: &rng) }
        let targets = (0..<max(n, m) + 100).map { _ in Int.random(in: 0..<groups, using: &rng) }
        record(
          placement,
          Wire.measure("outline-server: unknown method (-32601)", c, lockstep: n, pipelined: pipelined) { i in
            #"{"jsonrpc":"2.0","id":\#(i + 2),"method":"outline/ping","params":{}}"#
          })
        rowsAnswerBytes =
          c.call(
            #"{"jsonrpc":"2.0","id":1,"method":"visibleRows","params":{"uri":"\#(uri)","start":\#(starts[0]),"count":100}}"#
          )?.utf8.count ?? 0
        record(
          placement,
          Wire.measure(
            "outline-server: visibleRows (100 rows)", c, lockstep: n, pipelined: pipelined / 10,
            note: "\(rowCount) rows open"
          ) { i in
            #"{"jsonrpc":"2.0","id":\#(i + 2),"method":"visibleRows","params":{"uri":"\#(uri)","start":\#(starts[i]),"count":100}}"#
          })
        record(
          placement,
          Wire.measure("outline-server: toggleSection", c, lockstep: n, pipelined: pipelined) { i in
            #"{"jsonrpc":"2.0","id":\#(i + 2),"method":"toggleSection","params":{"uri":"\#(uri)","section":"g\#(targets[i])"}}"#
          })
        c.close()
      } else if placement == placements[0] {
        missing.append("outline-server: not built (swift build -c release)")
      }

      // The floor of moving an answer as big as visibleRows' over stdio.
      if rowsAnswerBytes > 0, let echo = paths.compile("echo-server"),
        let c = placement.spawn({ try LSPClient(executable: echo, arguments: ["\(rowsAnswerBytes - 40)"]) })
      {
        progressLog("e2e (\(placement.label)): C echo server, answers of \(rowsAnswerBytes) bytes")
        sizedBytes = rowsAnswerBytes
        record(
          placement,
          Wire.measure(
            "floor: C echo server answering as many bytes as visibleRows (100 rows)", c, lockstep: n,
            pipelined: pipelined / 10
          ) { i in
            #"{"jsonrpc":"2.0","id":\#(i + 1),"method":"outline/ping","params":{}}"#
          })
        c.close()
      }

      let hover =
        #"{"jsonrpc":"2.0","id":%d,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///nonexistent/a.c"},"position":{"line":0,"character":0}}}"#
      for name in ["clangd", "sourcekit-lsp"] {
        guard let exe = Paths.tool(name), let c = placement.spawn({ try LSPClient(executable: exe) }) else {
          if placement == placements[0] { missing.append("\(name): not found in /opt/swift/usr/bin or PATH") }
          continue
        }
        progressLog("e2e (\(placement.label)): \(name)")
        c.call(Wire.initialize)
        c.send(Wire.initialized)
        let k = name == "clangd" ? n : n / 3
        record(
          placement,
          Wire.measure(
            "\(name): hover on an unopened file (an error answer)", c, lockstep: k, pipelined: pipelined / 3,
            note: "toolchain's"
          ) { i in
            String(format: hover, i + 1)
          })
        c.close()
      }
    }
    Placement.release()

    var header = ["server and request"]
    for placement in placements {
      header += ["\(placement.label): median", "vs floor", "\(placement.label): p99"]
    }
    header.append("pipelined req/s (\(placements.last!.label))")
    var t = Table(
      title: "3. End to end over stdio (LSP framing; lockstep \(n) requests, pipelined up to \(m))",
      header: header)
    func floor(_ placement: Placement) -> WireResult? {
      rows.first { $0.name.hasPrefix("floor: C echo server (") }?.byPlacement[placement]
    }
    for r in rows {
      var cells = [r.name]
      for placement in placements {
        if let w = r.byPlacement[placement] {
          cells += [fmtTime(w.median), fmtRatio(w.median / (floor(placement)?.median ?? .nan)), fmtTime(w.p99)]
        } else {
          cells += ["–", "–", "–"]
        }
      }
      let rate = r.byPlacement[placements.last!]?.throughput ?? 0
      cells.append(rate > 0 ? String(format: "%.0f", rate) : "–")
      t.rows.append(cells)
    }
    for x in missing { t.rows.append([x] + Array(repeating: "–", count: header.count - 1)) }
    t.notes.append(
      "Placement: lockstep latency over a pipe is mostly the kernel waking the other process, which costs far "
        + "more when it runs on another core (an inter-processor interrupt, slow on a virtual machine) than on "
        + "the same one, and an unpinned pair lands on either from one run to the next. So every server is "
        + "measured twice, the bench's thread and the server pinned to "
        + placements.map(\.description).joined(separator: ", then ")
        + ", and each ratio is to the C echo server measured the same way. The client is the bench's own "
        + "(Swift, one read per answer, no JSON parsing, no allocation per message). The C echo server's "
        + "answer as big as visibleRows' is \(sizedBytes) bytes.")
    for r in rows where r.name.hasPrefix("outline-server") {
      // The goals of each row: lockstep vs the floor, and pipelined toggles.
      let goal = r.name.contains("unknown") ? 1.2 : r.name.contains("visibleRows") ? 3.0 : 1.5
      var parts: [String] = []
      for placement in placements {
        guard let w = r.byPlacement[placement], let f = floor(placement) else { continue }
        let ratio = w.median / f.median
        let lsp = rows.filter { $0.name.hasPrefix("clangd") || $0.name.hasPrefix("sourcekit") }
          .compactMap { $0.byPlacement[placement] }
        let below = lsp.allSatisfy { w.median < $0.median }
        var part =
          "\(placement.label) \(fmtRatio(ratio)) the floor (\(ratio <= goal ? "met" : "NOT met")), "
          + "\(below ? "below" : "NOT below") both LSP servers"
        if r.name.contains("visibleRows"),
          let sized = rows.first(where: { $0.name.contains("answering") })?.byPlacement[placement]
        {
          part += ", \(fmtRatio(w.median / sized.median)) the C echo server answering as many bytes"
        }
        parts.append(part)
      }
      var note =
        "\(r.name): lockstep goal ≤ \(String(format: "%.1f", goal))× the floor: " + parts.joined(separator: "; ")
      if let rate = r.byPlacement[placements.last!]?.throughput, rate > 0 {
        note += "; pipelined \(String(format: "%.0f", rate)) req/s"
        if r.name.contains("toggleSection") { note += " (goal ≥ 100000: \(rate >= 100_000 ? "met" : "NOT met"))" }
      }
      t.notes.append(note + ".")
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
