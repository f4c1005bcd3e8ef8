import JSONRPC
import Testing

@Suite("LSP framing")
struct LSPFramerTests {
  static let two = "Content-Length: 7\r\n\r\n{\"a\":1}content-length:2\r\nX-Other: yes\r\n\r\n[]"

  @Test("every split point of two messages gives the same bodies", arguments: [1, 2, 3, 5, 7, 1000])
  func splitAnywhere(chunkSize: Int) {
    var framer = LSPFramer(maxMessageBytes: 100)
    #expect(bodies(&framer, Array(Self.two.utf8), chunkSize: chunkSize) == ["{\"a\":1}", "[]"])
  }

  @Test func headerSplitAtEveryByte() {
    let input = Array(Self.two.utf8)
    for cut in 0...input.count {
      var framer = LSPFramer(maxMessageBytes: 100)
      var out: [String] = []
      framer.push(input[0..<cut])
      while let body = try! framer.next() { out.append(String(decoding: body, as: UTF8.self)) }
      framer.push(input[cut...])
      while let body = try! framer.next() { out.append(String(decoding: body, as: UTF8.self)) }
      #expect(out == ["{\"a\":1}", "[]"], "cut at \(cut)")
      #expect(!framer.hasPartialMessage)
    }
  }

  @Test func twoMessagesInOneChunk() throws {
    var framer = LSPFramer(maxMessageBytes: 100)
    framer.push(Array(Self.two.utf8))
    #expect(try framer.next().map { String(decoding: $0, as: UTF8.self) } == "{\"a\":1}")
    #expect(try framer.next().map { String(decoding: $0, as: UTF8.self) } == "[]")
    #expect(try framer.next() == nil)
  }

  @Test func contentLengthZero() throws {
    var framer = LSPFramer(maxMessageBytes: 100)
    framer.push(Array("Content-Length: 0\r\n\r\n".utf8))
    #expect(try framer.next() == [])
    #expect(try framer.next() == nil)
  }

  @Test func contentTypeAndCaseAndBareNewlines() {
    var framer = LSPFramer(maxMessageBytes: 100)
    let input = "CONTENT-TYPE: application/vscode-jsonrpc; charset=utf-8\nContent-LENGTH:   2  \n\nhi"
    #expect(bodies(&framer, Array(input.utf8), chunkSize: 1) == ["hi"])
  }

  @Test func bodyOfExactlyTheLimitIsAccepted() {
    var framer = LSPFramer(maxMessageBytes: 5)
    #expect(bodies(&framer, Array("Content-Length: 5\r\n\r\n12345".utf8), chunkSize: 3) == ["12345"])
  }

  @Test func declaredLengthOverTheLimitFailsBeforeTheBody() {
    // No body bytes at all: the header alone is enough to refuse.
    expectFramingError(LSPFramer(maxMessageBytes: 5), "Content-Length: 6\r\n\r\n", containing: "exceeds")
  }

  @Test(
    "broken headers",
    arguments: [
      ("Content-Length: abc\r\n\r\n", "invalid Content-Length"),
      ("Content-Length: -1\r\n\r\n", "invalid Content-Length"),
      ("Content-Length: \r\n\r\n", "invalid Content-Length"),
      ("Content-Length: 1 2\r\n\r\n", "invalid Content-Length"),
      ("Content-Length: 99999999999999999999999\r\n\r\n", "invalid Content-Length"),
      ("Content-Type: x\r\n\r\n", "without Content-Length"),
      ("garbage\r\n\r\n", "without a colon"),
      ("Content-Length: 1\r\nContent-Length: 2\r\n\r\n", "conflicting"),
    ])
  func brokenHeader(input: String, fragment: String) {
    expectFramingError(LSPFramer(maxMessageBytes: 1 << 20), input, containing: fragment)
  }

  @Test func endlessHeaderFails() {
    let input = "X-Junk: " + String(repeating: "a", count: LSPFramer.maxHeaderBytes + 10)
    expectFramingError(LSPFramer(maxMessageBytes: 100), input, containing: "header longer")
  }

  @Test func truncatedMessageAtEndOfInput() throws {
    var framer = LSPFramer(maxMessageBytes: 100)
    framer.push(Array("Content-Length: 5\r\n\r\nab".utf8))
    #expect(try framer.next() == nil)
    #expect(throws: FramingError.self) { try framer.finish() }
  }

  @Test func frameWritesContentLengthInBytes() {
    let body = Array("{\"t\":\"é\"}".utf8)
    #expect(String(decoding: Framing.lsp.frame(body), as: UTF8.self) == "Content-Length: 10\r\n\r\n{\"t\":\"é\"}")
  }
}

@Suite("ndjson framing")
struct NDJSONFramerTests {
  @Test("lines, blank lines and CRLF, split at every chunk size", arguments: 1...9)
  func lines(chunkSize: Int) {
    var framer = NDJSONFramer(maxMessageBytes: 100)
    let input = "{\"a\":1}\n\n  \r\n[1,2]\r\n\t\n3"
    #expect(bodies(&framer, Array(input.utf8), chunkSize: chunkSize) == ["{\"a\":1}", "[1,2]", "3"])
  }

  @Test func lineOfExactlyTheLimit() {
    var framer = NDJSONFramer(maxMessageBytes: 5)
    #expect(bodies(&framer, Array("12345\r\n12345\n".utf8), chunkSize: 2) == ["12345", "12345"])
  }

  @Test func lineOverTheLimit() {
    expectFramingError(NDJSONFramer(maxMessageBytes: 5), "123456\n", containing: "exceeds")
    expectFramingError(NDJSONFramer(maxMessageBytes: 5), "1234567890", containing: "longer")
  }

  @Test func frameAppendsNewline() {
    #expect(Framing.ndjson.frame(Array("{}".utf8)) == Array("{}\n".utf8))
  }
}
