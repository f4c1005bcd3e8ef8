import Foundation
import JSONRPC
import OutlineTestSupport
import Testing

/// Hostile and oversized input on the real binary: each limit is answered with
/// a clear error while the server keeps serving, or, for a header that cannot
/// be resynchronised, with exit status 1 and a message on stderr (§1, §3, §8).
@Suite struct LimitsTests {
  static let small = """
    groups:
      - id: g
        title: G
        rows: [{id: r, title: R}]
    """

  /// Sends a raw header block and expects exit status 1 with `message` on stderr, promptly.
  func expectBrokenHeader(
    _ header: String, arguments: [String] = [], message: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let s = try InProcessServer(arguments: arguments)
    s.initialize()
    s.writeRaw(Array(header.utf8))
    // The server must not wait for a body it will never accept: stdin stays open.
    #expect(s.waitForExit(timeout: 10) == 1, "for \(header.debugDescription)", sourceLocation: sourceLocation)
    #expect(s.stderrText.contains(message), "stderr: \(s.stderrText)", sourceLocation: sourceLocation)
  }

  // MARK: Headers

  @Test func absurdlyLargeContentLengthExits1() throws {
    try expectBrokenHeader(
      "Content-Length: 99999999999999999999999999\r\n\r\n", message: "invalid Content-Length")
    try expectBrokenHeader(
      "Content-Length: 999999999999999999\r\n\r\n", message: "exceeds --max-message-bytes")
  }

  @Test func negativeContentLengthExits1() throws {
    try expectBrokenHeader("Content-Length: -5\r\n\r\n", message: "invalid Content-Length")
  }

  @Test func nonNumericContentLengthExits1() throws {
    try expectBrokenHeader("Content-Length: twelve\r\n\r\n", message: "invalid Content-Length")
    try expectBrokenHeader("Content-Length: 0x10\r\n\r\n", message: "invalid Content-Length")
    try expectBrokenHeader("Content-Length: 1e3\r\n\r\n", message: "invalid Content-Length")
  }

  @Test func bodyOverTheMaximumExits1BeforeTheBodyArrives() throws {
    try expectBrokenHeader(
      "Content-Length: 1001\r\n\r\n", arguments: ["--max-message-bytes", "1000"],
      message: "message of 1001 bytes exceeds --max-message-bytes 1000")
    // Exactly the maximum is accepted.
    let s = try InProcessServer(arguments: ["--max-message-bytes", "1000"])
    s.initialize()
    let body = #"{"jsonrpc":"2.0","id":"x","method":"getViewState","params":{"uri":"#
    let padded = body + "\"" + String(repeating: "u", count: 1000 - body.utf8.count - 4) + "\"}}"
    #expect(padded.utf8.count == 1000)
    s.send(body: padded)
    #expect(s.next()?["error"]?["code"] == -32010)
  }

  @Test func ndjsonLineOverTheMaximumExits1() throws {
    let s = try InProcessServer(arguments: ["--max-message-bytes", "100"], framing: .ndjson)
    s.initialize()
    s.writeRaw(Array(String(repeating: "[", count: 5000).utf8))
    #expect(s.waitForExit(timeout: 10) == 1)
    #expect(s.stderrText.contains("--max-message-bytes 100"))
  }

  // MARK: Bodies

  @Test func jsonNested100000DeepIsAParseError() throws {
    let s = try InProcessServer()
    s.initialize()
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    s.send(body: deep)
    let reply = s.next()
    #expect(reply?["error"]?["code"] == -32700)
    #expect(reply?["id"] == .null)
    #expect(
      reply?["error"]?["message"]
        == "parse error: not a JSON text: nested deeper than 512 levels at line 1, column 513 (byte 512)")
    let inParams =
      #"{"jsonrpc":"2.0","id":7,"method":"visibleRows","params":{"uri":"#
      + String(repeating: "{\"a\":", count: 100_000) + "1" + String(repeating: "}", count: 100_000) + "}}"
    s.send(body: inParams)
    #expect(s.next()?["error"]?["code"] == -32700)
    s.expectServing()
  }

  @Test func invalidUTF8AndLoneSurrogatesAreParseErrors() throws {
    let s = try InProcessServer()
    s.initialize()
    let prefix = Array(#"{"jsonrpc":"2.0","id":1,"method":"openOutline","params":{"uri":"mem:u","text":""#.utf8)
    let suffix = Array(#""}}"#.utf8)
    for bad: [UInt8] in [[0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC0, 0xAF]] {
      let body = prefix + bad + suffix
      s.writeRaw(Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body)
      let reply = s.next()
      #expect(reply?["error"]?["code"] == -32700, "for bytes \(bad)")
      #expect(
        reply?["error"]?["message"]
          == .string(
            "parse error: not a JSON text: invalid UTF-8 at line 1, column \(prefix.count + 1) (byte \(prefix.count))"))
      #expect(reply?["id"] == .null)
    }
    for escape in [#"\ud800"#, #"\udc00"#, #"\ud800\u0041"#, #"x\udbff"#] {
      s.send(
        body: #"{"jsonrpc":"2.0","id":2,"method":"openOutline","params":{"uri":"mem:u","text":"title: "#
          + escape + #""}}"#)
      let reply = s.next()
      #expect(reply?["error"]?["code"] == -32700, "for \(escape)")
      #expect(reply?["id"] == .null)
    }
    // A surrogate pair written as escapes is one scalar, and fine.
    let pair = s.result(
      "openOutline", ["uri": "mem:u", "text": .string("groups: [{title: \"\u{1F600}\", rows: [{title: r}]}]")])
    #expect(pair["total"] == 1)
    s.expectServing()
  }

  @Test func fiveMegabyteOpenOutlineLoads() throws {
    let s = try InProcessServer()
    s.initialize()
    var text = "groups:\n"
    var rows = 0
    var group = 0
    while text.utf8.count < 5_000_000 {
      text += "  - id: g\(group)\n    title: Group \(group)\n    rows:\n"
      for _ in 0..<100 {
        text += "      - {id: r\(rows), title: Row \(rows), detail: Some detail text for row \(rows)}\n"
        rows += 1
      }
      group += 1
    }
    // How fast it loads is the benchmark's to say (outline-bench, docs/performance.md).
    let r = s.result("openOutline", ["uri": "mem:big", "text": .string(text)])
    #expect(r["rowCount"] == .int(Int64(rows)))
    #expect(r["groupCount"] == .int(Int64(group)))
    let all = s.result("expandAll", ["uri": "mem:big"])
    #expect(all["total"] == .int(Int64(rows + group)))
    s.expectServing()
  }

  // MARK: YAML

  @Test func yamlFlowNested20000DeepIsRefused() throws {
    let s = try InProcessServer()
    s.initialize()
    for (open, close) in [("[", "]"), ("{a: ", "}")] {
      let text =
        "groups:\n  - title: T\n    rows:\n      - title: R\n        data: "
        + String(repeating: open, count: 20_000) + "1" + String(repeating: close, count: 20_000) + "\n"
      let reply = s.request("openOutline", ["uri": "mem:deep", "text": .string(text)])
      #expect(reply["error"]?["code"] == -32011)
      let diagnostic = reply["error"]?["data"]?["diagnostics"]?[0]
      #expect(diagnostic?["code"] == "too-deep")
      #expect(diagnostic?["range"]?["start"]?["line"] == 4)
    }
    s.expectServing()
  }

  // MARK: Files

  @Test func devicesAndFifosAreFileErrorsNotHangs() throws {
    let s = try InProcessServer()
    s.initialize()
    let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("outline-fifo-\(UUID().uuidString)")
    #expect(mkfifo(fifo.path, 0o600) == 0)
    defer { try? FileManager.default.removeItem(at: fifo) }
    for path in ["/dev/zero", "/dev/urandom", fifo.path] {
      let reply = s.request("openOutline", ["uri": .string(URL(fileURLWithPath: path).absoluteString)])
      #expect(reply["error"]?["code"] == -32013, "for \(path)")
      #expect(reply["error"]?["message"]?.stringValue?.contains(path) == true)
    }
    s.expectServing()
  }

  // MARK: Cancellation

  /// `v` framed with a Content-Length header, for writing several messages at once.
  private func body(_ v: JSONValue) -> [UInt8] {
    let data = try! JSONEncoder().encode(v)
    return Array("Content-Length: \(data.count)\r\n\r\n".utf8) + Array(data)
  }

  @Test func aRequestAndItsCancelInOneWrite() throws {
    let s = try InProcessServer()
    s.initialize()
    let text = longOpenText
    // A long open, a request queued behind it, and the cancels of both: one write.
    let open: JSONValue = [
      "jsonrpc": "2.0", "id": 100, "method": "openOutline", "params": ["uri": "mem:c", "text": .string(text)],
    ]
    let queued: JSONValue = ["jsonrpc": "2.0", "id": "q", "method": "getViewState", "params": ["uri": "mem:c"]]
    let cancelOpen: JSONValue = ["jsonrpc": "2.0", "method": "$/cancelRequest", "params": ["id": 100]]
    let cancelQueued: JSONValue = ["jsonrpc": "2.0", "method": "$/cancelRequest", "params": ["id": "q"]]
    s.writeRaw(body(open) + body(queued) + body(cancelOpen) + body(cancelQueued))
    let first = s.next()
    #expect(first?["id"] == 100)
    #expect(first?["error"]?["code"] == -32800)
    let second = s.next()
    #expect(second?["id"] == "q")
    #expect(second?["error"]?["code"] == -32800)
    // The cancelled open left nothing behind.
    #expect(s.errorCode("visibleRows", ["uri": "mem:c"]) == -32010)
    s.expectServing()
  }

  @Test func anOpenCancelledWhileQueuedStillBeginsAndEndsItsProgress() throws {
    // PROTOCOL §2: an openOutline with a workDoneToken gets one begin and one end,
    // also when it fails, and so also when it is cancelled before it runs.
    let s = try InProcessServer()
    s.initialize()
    let text = longOpenText
    let long: JSONValue = [
      "jsonrpc": "2.0", "id": 1, "method": "openOutline", "params": ["uri": "mem:long", "text": .string(text)],
    ]
    let queued: JSONValue = [
      "jsonrpc": "2.0", "id": 2, "method": "openOutline",
      "params": ["uri": "mem:q", "text": "groups: []", "workDoneToken": "B"],
    ]
    let cancel: JSONValue = ["jsonrpc": "2.0", "method": "$/cancelRequest", "params": ["id": 2]]
    s.writeRaw(body(long) + body(queued) + body(cancel))
    var kinds: [String] = []
    while let m = s.next() {
      if m["method"] == "$/progress" {
        #expect(m["params"]?["token"] == "B")
        kinds.append(m["params"]?["value"]?["kind"]?.stringValue ?? "?")
      } else if m["id"] == 2 {
        #expect(m["error"]?["code"] == -32800)
        break
      }
    }
    #expect(kinds == ["begin", "end"])
    s.expectServing()
  }

  @Test func aCancelForAnUnknownIDIsIgnored() throws {
    let s = try InProcessServer()
    s.initialize()
    s.notify("$/cancelRequest", ["id": 12345])
    s.notify("$/cancelRequest", ["id": "nobody"])
    s.notify("$/cancelRequest", ["id": 1.5])
    s.notify("$/cancelRequest", [:])
    s.notify("$/cancelRequest")
    // No reply to any of them: the next message is the answer to this request.
    let id = s.sendRequest("getViewState", ["uri": "mem:none"])
    let reply = s.next()
    #expect(reply?["id"] == .int(id))
    #expect(reply?["error"]?["code"] == -32010)
    s.expectServing()
  }
}
