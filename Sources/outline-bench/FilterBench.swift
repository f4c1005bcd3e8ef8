import Foundation
import OutlineModel
import OutlineYAML

/// Filtering as a person types (PROTOCOL §6 `filterOutline`) on the Debian
/// package outline: each keystroke's filter in process, and over stdio
/// through the real server, where the answer (up to 10,000 matches with
/// their ranges) is encoded with Foundation's JSON.
enum FilterBench {
  /// The keystrokes: a query typed one character at a time, then cleared.
  static let keystrokes = ["p", "py", "pyt", "pyth", "pytho", "python", "python3", "", "l", "li", "lib", ""]

  static func table(_ options: Options, _ paths: Paths) -> Table {
    var t = Table(
      title: "Filter as you type: the Debian package outline",
      header: ["query", "matches", "in process (model)", "over stdio (server)"])
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
      client.close()
    }
    for q in keystrokes {
      t.rows.append([
        q.isEmpty ? "(clear)" : q, fmtCount(matchCount[q] ?? 0), fmtTime(median(model[q] ?? [])),
        wire[q].map { fmtTime(median($0)) } ?? "–",
      ])
    }
    t.notes.append(
      "\(fmtCount(state.outline.count)) items. The first filter of an outline also folds every title and detail "
        + "once: \(fmtTime(first)). Medians of \(rounds) round(s); a match list is capped at 10,000.")
    return t
  }
}
