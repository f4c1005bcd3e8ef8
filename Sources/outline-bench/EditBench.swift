import Foundation
import JSONRPC
import OutlineModel
import OutlineYAML

/// Typing in the Debian package outline (PROTOCOL §9 `changeOutline`): one
/// keystroke sent as an edit of the text the server keeps, against the same
/// keystroke sent as the whole text, side by side over stdio through the
/// real server, and where the time of an edit goes, in process.
enum EditBench {
  static func table(_ options: Options, _ paths: Paths) -> Table {
    var t = Table(
      title: "Edits: one keystroke in the Debian package outline, as an edit and as the whole text",
      header: ["what", "median", "min", "max", "bytes sent"])
    let file =
      options.quick ? paths.temp + "/debian-2000.yaml" : paths.root + "/examples/generated/debian-packages.yaml"
    if !FileManager.default.fileExists(atPath: file) {
      progressLog("building the Debian package outline (scripts/make-examples)")
      _ = shell([paths.root + "/scripts/make-examples", "--out", file] + (options.quick ? ["--limit", "2000"] : []))
    }
    guard let data = FileManager.default.contents(atPath: file) else {
      t.notes.append("No Debian package outline: run scripts/make-examples.")
      return t
    }
    let bytes = [UInt8](data)
    let text = String(decoding: bytes, as: UTF8.self)
    var lines = text.components(separatedBy: "\n")
    // The keystroke: an `x` typed at the start of a row's detail halfway down, then deleted.
    guard let k = lines.indices.dropFirst(lines.count / 2).first(where: { lines[$0].contains("detail: \"") }) else {
      t.notes.append("No detail line in the Debian package outline.")
      return t
    }
    let column = lines[k].utf16.count - lines[k].drop { $0 == " " }.utf16.count + "detail: \"".utf16.count
    let original = lines[k]
    var typed = lines[k]
    typed.insert("x", at: typed.index(typed.startIndex, offsetBy: column))
    lines[k] = typed
    let typedText = lines.joined(separator: "\n")
    lines[k] = original
    let rounds = options.quick ? 2 : 10

    // In process: the splice, and the parse that follows either way.
    var source = SourceText(bytes)
    let insert = ContentChange(
      range: LSPRange(start: LSPPosition(line: k, character: column), end: LSPPosition(line: k, character: column)),
      text: Array("x".utf8))
    let delete = ContentChange(
      range: LSPRange(
        start: LSPPosition(line: k, character: column), end: LSPPosition(line: k, character: column + 1)),
      text: [])
    var spliceTimes: [Double] = []
    for _ in 0..<max(rounds, 20) {
      let t0 = nowNanos()
      _ = try? source.apply([insert], in: .utf16)
      _ = try? source.apply([delete], in: .utf16)
      spliceTimes.append(Double(nowNanos() - t0) / 2)
    }
    let indexStart = nowNanos()
    sink(SourceText(bytes))
    let indexTime = Double(nowNanos() - indexStart)
    var parseTimes: [Double] = []
    for _ in 0..<min(rounds, 3) {
      let t0 = nowNanos()
      sink(try? OutlineLoader.loadOutline(.bytes(bytes)))
      parseTimes.append(Double(nowNanos() - t0))
    }

    guard let server = paths.server,
      let client = try? LSPClient(executable: server, arguments: ["--state-dir", paths.temp + "/edit-state"])
    else {
      t.notes.append("outline-server: not built (swift build -c release)")
      return t
    }
    client.call(
      #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{"general":{"positionEncodings":["utf-16"]}}}}"#
    )
    client.send(Wire.initialized)
    let uri = URL(fileURLWithPath: file).absoluteString
    let openStart = nowNanos()
    client.call(#"{"jsonrpc":"2.0","id":2,"method":"openOutline","params":{"uri":"\#(uri)"}}"#)
    let openTime = Double(nowNanos() - openStart)

    func edits(_ change: ContentChange) -> String {
      let r = change.range
      return #"{"jsonrpc":"2.0","id":3,"method":"changeOutline","params":{"uri":"\#(uri)","edits":[{"range":"#
        + #"{"start":{"line":\#(r.start.line),"character":\#(r.start.character)},"#
        + #""end":{"line":\#(r.end.line),"character":\#(r.end.character)}},"text":"\#(String(decoding: change.text, as: UTF8.self))"}]}}"#
    }
    func whole(_ text: String) -> [UInt8] {
      var json = JSONWriter(capacity: text.utf8.count + 256)
      json.object { json in
        json.member("jsonrpc", "2.0")
        json.member("id", 4)
        json.member("method", "changeOutline")
        json.key("params")
        json.object { json in
          json.member("uri", uri)
          json.member("text", text)
        }
      }
      return LSPClient.frame(json.text)
    }
    let insertBody = LSPClient.frame(edits(insert))
    let deleteBody = LSPClient.frame(edits(delete))
    let encodeStart = nowNanos()
    let typedBody = whole(typedText)
    let encodeTime = Double(nowNanos() - encodeStart)
    let originalBody = whole(text)
    var failures = 0
    func timed(_ frame: [UInt8]) -> Double {
      let t0 = nowNanos()
      client.write(frame)
      let answer = client.readResponse()
      let time = Double(nowNanos() - t0)
      if answer.map({ String(decoding: $0, as: UTF8.self).contains(#""applied":true"#) }) != true { failures += 1 }
      return time
    }
    // The first edit of a file opened from disk reads the file again (its text is not held after the open).
    let firstEdit = timed(insertBody)
    _ = timed(deleteBody)
    var editTimes: [Double] = []
    var wholeTimes: [Double] = []
    // Side by side, alternating, so both see the same machine.
    for _ in 0..<rounds {
      editTimes.append(timed(insertBody))
      editTimes.append(timed(deleteBody))
      wholeTimes.append(timed(typedBody))
      wholeTimes.append(timed(originalBody))
    }
    let rss = peakRSS(pid: client.pid).map(Double.init) ?? .nan
    client.close()
    // Peak RSS of each way alone, in a fresh server: the open, then the rounds of one kind only.
    func peak(_ frames: [[UInt8]]) -> Double {
      guard let c = try? LSPClient(executable: server, arguments: ["--state-dir", paths.temp + "/edit-state"]) else {
        return .nan
      }
      c.call(
        #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{"general":{"positionEncodings":["utf-16"]}}}}"#
      )
      c.send(Wire.initialized)
      c.call(#"{"jsonrpc":"2.0","id":2,"method":"openOutline","params":{"uri":"\#(uri)"}}"#)
      for _ in 0..<rounds {
        for f in frames {
          c.write(f)
          _ = c.readResponse()
        }
      }
      let p = peakRSS(pid: c.pid).map(Double.init) ?? .nan
      c.close()
      return p
    }
    let editPeak = peak([insertBody, deleteBody])
    let wholePeak = peak([typedBody, originalBody])
    if failures > 0 {
      t.notes.append("\(failures) changeOutline answers were not `applied: true`: these figures are wrong.")
    }

    func row(_ what: String, _ times: [Double], _ sent: Int) -> [String] {
      [
        what, fmtTime(median(times)), fmtTime(times.min() ?? .nan), fmtTime(times.max() ?? .nan),
        fmtBytes(Double(sent)),
      ]
    }
    t.rows.append(row("outline-server: openOutline {uri: file:…}", [openTime], 0))
    t.rows.append(
      row(
        "outline-server: changeOutline {edits}, the first after the open (reads the file again)", [firstEdit],
        insertBody.count))
    t.rows.append(row("outline-server: changeOutline {edits}: one character", editTimes, insertBody.count))
    t.rows.append(row("outline-server: changeOutline {text}: the whole text", wholeTimes, typedBody.count))
    t.rows.append(row("client: the whole text as a JSON request (JSONWriter, before sending)", [encodeTime], 0))
    t.rows.append(row("in process: SourceText.apply, one character (splice and line index)", spliceTimes, 0))
    t.rows.append(row("in process: SourceText, the line index of the whole text", [indexTime], 0))
    t.rows.append(row("in process: OutlineLoader.loadOutline, the whole text", parseTimes, 0))
    t.notes.append(
      "\(fmtBytes(Double(bytes.count))), \(fmtCount(lines.count)) lines; the keystroke is an x typed into the detail "
        + "on line \(k + 1), then deleted. \(rounds) rounds, edits and whole texts alternating; times are from the "
        + "request's first byte written to its answer read, lockstep. Either way the server parses the whole new "
        + "text again; an edit saves building, sending, reading and copying the text. Server peak RSS: "
        + "\(fmtBytes(rss)) for this run, \(fmtBytes(editPeak)) for the open and edits alone, "
        + "\(fmtBytes(wholePeak)) for the open and whole texts alone.")
    return t
  }
}
