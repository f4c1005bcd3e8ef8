import Testing

@testable import JSONRPC

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

  @Test("a header's name in any ASCII case, spaces and tabs around name and value, LF or CRLF")
  func headerSpellings() throws {
    for header in ["CONTENT-length:7\r\n\r\n", " Content-Length \t:\t 7 \r\n\r\n", "content-LENGTH: 7\n\n"] {
      var framer = LSPFramer(maxMessageBytes: 100)
      framer.push(Array((header + #"{"a":1}"#).utf8))
      let body = try #require(try framer.next(), "\(header.debugDescription)")
      #expect(String(decoding: body, as: UTF8.self) == #"{"a":1}"#)
    }
  }

  @Test("a length of 18 digits is read (and exceeds the limit); 19 digits are refused")
  func lengthDigits() {
    expectFramingError(
      LSPFramer(maxMessageBytes: 100), "Content-Length: 100000000000000000\r\n\r\n",
      containing: "100000000000000000 bytes exceeds")
    expectFramingError(
      LSPFramer(maxMessageBytes: 100), "Content-Length: 1000000000000000000\r\n\r\n",
      containing: "invalid Content-Length")
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

@Suite("A framer's buffer")
struct FramerBufferTests {
  /// A long session holds the bytes not yet consumed, not every byte ever read: consumed
  /// bytes are dropped once they are half the buffer.
  @Test func consumedBytesDoNotAccumulate() {
    var buffer = FramerBuffer()
    var start = 0
    var scanned = 0
    let line = Array("{\"a\":1}\n".utf8)
    for _ in 0..<1000 {
      buffer.append(line, start: &start, scanned: &scanned)
      start = buffer.count
      scanned = start
    }
    #expect(buffer.count <= 2 * line.count)
  }

  /// Dropping consumed bytes keeps the rest, and the offsets into it follow the bytes.
  @Test func droppingConsumedBytesMovesTheOffsetsWithTheRest() {
    var buffer = FramerBuffer()
    var start = 0
    var scanned = 0
    buffer.append(Array("abcdefgh".utf8), start: &start, scanned: &scanned)
    start = 6
    scanned = 7
    buffer.append(Array("ij".utf8), start: &start, scanned: &scanned)
    #expect(Array(buffer[start..<buffer.count]) == Array("ghij".utf8))
    #expect(buffer[scanned] == UInt8(ascii: "h"))
  }
}

/// What a framer hands out in place: a body, where it is, and the padding after it.
struct InPlaceBody: Equatable {
  var text: String
  /// The address of the body's first byte.
  var address: UInt
  /// The `JSONParser.padding` bytes after the body.
  var padding: [UInt8]

  init(_ body: PaddedBytes) {
    text = String(decoding: body.bytes, as: UTF8.self)
    address = UInt(bitPattern: body.bytes.baseAddress)
    let after = UnsafeRawBufferPointer(start: body.bytes.baseAddress! + body.count, count: JSONParser.padding)
    padding = [UInt8](after)
  }
}

/// Pushes `input` into `framer` in chunks of `chunkSize` bytes, collecting every body
/// handed out in place.
func inPlaceBodies<F: MessageFramer>(
  _ framer: inout F, _ input: [UInt8], chunkSize: Int, sourceLocation: SourceLocation = #_sourceLocation
) -> [InPlaceBody] {
  var out: [InPlaceBody] = []
  var offset = 0
  do {
    while offset < input.count {
      let end = min(offset + chunkSize, input.count)
      framer.push(input[offset..<end])
      offset = end
      while let body = try framer.withNextBody(InPlaceBody.init) { out.append(body) }
    }
    if let last = try framer.withFinalBody(InPlaceBody.init) { out.append(last) }
  } catch {
    Issue.record("unexpected framing error: \(error)", sourceLocation: sourceLocation)
  }
  return out
}

@Suite("Bodies handed out in place, padded for the JSON parser")
struct InPlaceBodyTests {
  static let spaces = [UInt8](repeating: UInt8(ascii: " "), count: JSONParser.padding)

  @Test("byte by byte, each body is followed by the padding", arguments: Framing.allCases)
  func byteByByte(framing: Framing) {
    let messages = [#"{"a":1}"#, "[]", #""é""#]
    let input = messages.flatMap { framing.frame(Array($0.utf8)) }
    var framer = framing.makeFramer(maxMessageBytes: 100)
    let got = inPlaceBodies(&framer, input, chunkSize: 1)
    #expect(got.map(\.text) == messages)
    // Pushed one byte at a time, each body is complete when the buffer ends with it (or with
    // its newline): only spare bytes follow.
    let after = framing == .lsp ? Self.spaces : [UInt8(ascii: "\n")] + Self.spaces.dropLast()
    #expect(got.allSatisfy { $0.padding == after })
  }

  @Test func headerSplitAtEveryByte() throws {
    let input = Array(LSPFramerTests.two.utf8)
    for cut in 0...input.count {
      var framer = LSPFramer(maxMessageBytes: 100)
      var out: [String] = []
      framer.push(input[0..<cut])
      while let body = try framer.withNextBody(InPlaceBody.init) { out.append(body.text) }
      framer.push(input[cut...])
      while let body = try framer.withNextBody(InPlaceBody.init) { out.append(body.text) }
      #expect(out == ["{\"a\":1}", "[]"], "cut at \(cut)")
      #expect(!framer.hasPartialMessage)
    }
  }

  @Test func twoMessagesInOneChunkAreReadWhereTheyLie() throws {
    let second = "content-length:2\r\nX-Other: yes\r\n\r\n"
    var framer = LSPFramer(maxMessageBytes: 100)
    framer.push(Array(LSPFramerTests.two.utf8))
    let first = try #require(try framer.withNextBody(InPlaceBody.init))
    let next = try #require(try framer.withNextBody(InPlaceBody.init))
    #expect(first.text == "{\"a\":1}" && next.text == "[]")
    // Not copied: the second body lies after the first and the second header.
    #expect(next.address == first.address + UInt(first.text.utf8.count + second.utf8.count))
    // What follows the first body is the second message itself.
    #expect(first.padding.starts(with: Array(second.utf8)))
    #expect(try framer.withNextBody(InPlaceBody.init) == nil)
  }

  @Test func bodyEndingExactlyAtTheBufferEnd() throws {
    var framer = LSPFramer(maxMessageBytes: 100)
    framer.push(Array("Content-Length: 7\r\n\r\n{\"a\":1}".utf8))
    let body = try #require(try framer.withNextBody(InPlaceBody.init))
    #expect(body.text == "{\"a\":1}")
    #expect(body.padding == Self.spaces)
    var lines = NDJSONFramer(maxMessageBytes: 100)
    lines.push(Array("[1]\n{\"b\":2}".utf8))
    #expect(try lines.withNextBody(InPlaceBody.init)?.text == "[1]")
    #expect(try lines.withNextBody(InPlaceBody.init) == nil)
    let last = try #require(try lines.withFinalBody(InPlaceBody.init))
    #expect(last.text == "{\"b\":2}" && last.padding == Self.spaces)
  }

  @Test("a CR before the newline stays in the buffer, after the body")
  func crlfLine() throws {
    var framer = NDJSONFramer(maxMessageBytes: 100)
    framer.push(Array("[1]\r\n".utf8))
    let body = try #require(try framer.withNextBody(InPlaceBody.init))
    #expect(body.text == "[1]" && body.padding.starts(with: Array("\r\n".utf8)))
  }

  @Test("in place and copied out give the same bodies, whatever the chunk size", arguments: [1, 2, 3, 7, 64, 1000])
  func sameAsNext(chunkSize: Int) {
    for framing in Framing.allCases {
      let messages = (0..<20).map { #"{"i":\#($0),"s":"\#(String(repeating: "x", count: $0 * 7))"}"# }
      let input = messages.flatMap { framing.frame(Array($0.utf8)) }
      var inPlace = framing.makeFramer(maxMessageBytes: 1000)
      var copied = framing.makeFramer(maxMessageBytes: 1000)
      #expect(inPlaceBodies(&inPlace, input, chunkSize: chunkSize).map(\.text) == messages)
      #expect(bodies(&copied, input, chunkSize: chunkSize) == messages)
    }
  }

  @Test("bodies parse in place as they parse from a copy", arguments: Framing.allCases)
  func parseInPlace(framing: Framing) throws {
    let messages = [
      #"{"jsonrpc":"2.0","id":1,"method":"toggleSection","params":{"uri":"mem:a","section":"g1"}}"#,
      #"[{"jsonrpc":"2.0","method":"n"},{"jsonrpc":"2.0","id":"x","method":"m","params":[1,2.5,null]}]"#,
      #"{"jsonrpc":"2.0","id":2,"method":"m","params":{"big":123456789012345678901234567890}}"#,
      "{", "1",
    ]
    var framer = framing.makeFramer(maxMessageBytes: 1000)
    framer.push(messages.flatMap { framing.frame(Array($0.utf8)) })
    let parser = JSONParser()
    var decoded: [MessageBody] = []
    while let body = try framer.withNextBody({ Message.decodeBody($0, parser: parser) }) { decoded.append(body) }
    if let body = try framer.withFinalBody({ Message.decodeBody($0, parser: parser) }) { decoded.append(body) }
    #expect(decoded == messages.map { Message.decodeBody(Array($0.utf8)) })
  }
}

@Suite struct FramingErrorTextTests {
  /// A header without Content-Length is quoted in the error (the header block, its
  /// line ends escaped), cut at 200 bytes with an ellipsis.
  @Test func aBadHeaderIsQuotedEscapedAndCut() {
    let y193 = String(repeating: "y", count: 193)
    for (header, quoted) in [
      ("X-A: b", #""X-A: b\r\n\r\n""#),
      ("X-Tab:\tb", #""X-Tab:\tb\r\n\r\n""#),
      // 200 bytes with the blank line: whole; 201: cut after 200.
      ("X: " + y193, "\"X: \(y193)\\r\\n\\r\\n\""),
      ("X: y" + y193, "\"X: y\(y193)\\r\\n\\r\"…"),
    ] {
      var framer = LSPFramer(maxMessageBytes: 1 << 20)
      framer.push(Array((header + "\r\n\r\n").utf8))
      do {
        _ = try framer.next()
        Issue.record("no error for \(header)")
      } catch {
        #expect(error.description == "header without Content-Length: \(quoted)", "\(header.count) bytes")
      }
    }
  }
}
