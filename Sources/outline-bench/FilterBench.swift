import Foundation
import JSONRPC
import OutlineModel
import OutlineYAML

/// The Debian package outline (65k items, 15 MB) as a pane uses it: filtering
/// as a person types (PROTOCOL §6 `filterOutline`), each keystroke in process
/// and over stdio through the real server; then the whole visible list
/// fetched over stdio after expand all, in pages of 10,000; then the whole
/// text sent again with `changeOutline`, and how much of that is JSON.
enum FilterBench {
  /// The keystrokes: a query typed one character at a time, then cleared.
  static let keystrokes = ["p", "py", "pyt", "pyth", "pytho", "python", "python3", "", "l", "li", "lib", ""]

  static func table(_ options: Options, _ paths: Paths) -> Table {
    var t = Table(
      title: "Filter as you type: the Debian package outline",
      header: ["query", "matches", "in process (model)", "over stdio (server)", "stdio / model"])
    // --quick: the first 2,000 packages, so the smoke run stays short.
    let file =
      options.quick ? paths.temp + "/debian-2000.yaml" : paths.root + "/examples/generated/debian-packages.yaml"
    if !FileManager.default.fileExists(atPath: file) {
      progressLog("building the Debian package outline (scripts/make-examples)")
      _ = shell([paths.root + "/scripts/make-examples", "--out", file] + (options.quick ? ["--limit", "2000"] : []))
    }
    guard let data = FileManager.default.contents(atPath: file),
      let outline = try? OutlineLoader.loadOutline(.bytes([UInt8](data))).outline
    else {
      t.notes.append("No Debian package outline: run scripts/make-examples.")
      return t
    }
    var state = OutlineState(outline: outline)
    let rounds = options.quick ? 1 : 5
    // The first filter folds every title and detail once: report it apart.
    let firstStart = nowNanos()
    _ = state.filter("x")
    let first = Double(nowNanos() - firstStart)
    _ = state.filter("")
    var model: [String: [Double]] = [:]
    var matchCount: [String: Int] = [:]
    for _ in 0..<rounds {
      for q in keystrokes {
        let s = nowNanos()
        let (_, matches) = state.filter(q)
        model[q, default: []].append(Double(nowNanos() - s))
        matchCount[q] = matches.count
      }
    }
    var wire: [String: [Double]] = [:]
    var wholeList: (Int, Double)? = nil
    var changeText: (Double, Double, Double)? = nil
    if let server = paths.server,
      let client = try? LSPClient(executable: server, arguments: ["--state-dir", paths.temp])
    {
      _ = client.call(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#)
      let uri = URL(fileURLWithPath: file).absoluteString
      _ = client.call(#"{"jsonrpc":"2.0","id":2,"method":"openOutline","params":{"uri":"\#(uri)"}}"#)
      _ = client.call(#"{"jsonrpc":"2.0","id":3,"method":"filterOutline","params":{"uri":"\#(uri)","query":"x"}}"#)
      for _ in 0..<rounds {
        for q in keystrokes {
          let s = nowNanos()
          _ = client.call(
            #"{"jsonrpc":"2.0","id":4,"method":"filterOutline","params":{"uri":"\#(uri)","query":"\#(q)"}}"#)
          wire[q, default: []].append(Double(nowNanos() - s))
        }
      }
      _ = client.call(#"{"jsonrpc":"2.0","id":5,"method":"filterOutline","params":{"uri":"\#(uri)","query":""}}"#)
      // The whole visible list, as a pane holds it: expand all, then pages of 10,000.
      let all = client.call(#"{"jsonrpc":"2.0","id":6,"method":"expandAll","params":{"uri":"\#(uri)"}}"#) ?? ""
      let total = Int(all.firstMatch(of: /"total":(\d+)/)?.1 ?? "0") ?? 0
      var fetches: [Double] = []
      for _ in 0..<rounds {
        let s = nowNanos()
        var start = 0
        while start < total {
          _ = client.call(
            #"{"jsonrpc":"2.0","id":7,"method":"visibleRows","params":{"uri":"\#(uri)","start":\#(start),"count":10000}}"#
          )
          start += 10_000
        }
        fetches.append(Double(nowNanos() - s))
      }
      wholeList = (total, median(fetches))
      // The whole text again, as an editor without incremental sync sends it.
      let text = String(decoding: data, as: UTF8.self)
      let body = JSONValue.object([
        "jsonrpc": "2.0", "id": 8, "method": "changeOutline",
        "params": ["uri": .string(uri), "text": .string(text + "\n")],
      ]).encoded()
      var changes: [Double] = []
      for _ in 0..<max(1, rounds / 2) {
        let s = nowNanos()
        _ = client.call(String(decoding: body, as: UTF8.self))
        changes.append(Double(nowNanos() - s))
      }
      let parser = JSONParser()
      // The copy that pads the body is timed out: the framer hands bodies out padded.
      let parse = PaddedBytes.withCopy(of: body) { padded in
        timePerOp(repeats: 3, ops: 1) { sink(Message.decodeBody(padded, parser: parser)) }
      }
      changeText = (Double(body.count), median(changes), parse)
      client.close()
    }
    for q in keystrokes {
      let m = median(model[q] ?? [])
      t.rows.append([
        q.isEmpty ? "(clear)" : q, fmtCount(matchCount[q] ?? 0), fmtTime(m),
        wire[q].map { fmtTime(median($0)) } ?? "–",
        wire[q].map { String(format: "%.2f×", median($0) / m) } ?? "–",
      ])
    }
    let typed = keystrokes.filter { !$0.isEmpty }
    let worst = typed.compactMap { q in wire[q].map { median($0) / median(model[q] ?? [1]) } }.max() ?? .nan
    t.notes.append(
      "A keystroke over stdio is at worst \(String(format: "%.2f", worst))× the same filter in the model "
        + "(goal ≤ 1.5×: \(worst <= 1.5 ? "met" : "NOT met")).")
    if let (total, time) = wholeList {
      t.notes.append(
        "The whole visible list over stdio after expandAll (\(fmtCount(total)) rows, pages of 10,000): \(fmtTime(time)) "
          + "(goal ≤ 100 ms: \(time <= 100e6 ? "met" : "NOT met")).")
    }
    if let (bytes, time, parse) = changeText {
      t.notes.append(
        "changeOutline of the whole text (\(String(format: "%.1f", bytes / 1e6)) MB of JSON) over stdio: "
          + "\(fmtTime(time)); reading its JSON in process (simdjson, in place): \(fmtTime(parse)), "
          + "\(String(format: "%.1f", 100 * parse / time)) % of it (goal ≤ 5 %: \(parse / time <= 0.05 ? "met" : "NOT met")); "
          + "the rest is the YAML loader and the transport.")
    }
    t.notes.append(
      "\(fmtCount(state.outline.count)) items. The first filter of an outline also folds every title and detail "
        + "once: \(fmtTime(first)). Medians of \(rounds) round(s); a match list is capped at 10,000.")
    return t
  }
}
