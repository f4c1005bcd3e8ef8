import JSONRPC
import Testing

/// The framed bytes of `value` written by a writer from `framing.makeWriter()`, or from a
/// plain `JSONWriter()` when `withRoom` is false.
private func framed(_ value: JSONValue, _ framing: Framing, withRoom: Bool = true) -> [UInt8] {
  var json = withRoom ? framing.makeWriter(capacity: 1) : JSONWriter(capacity: 1)
  value.write(to: &json)
  return framing.framedBytes(json)
}

@Suite("Framing written messages")
struct FramingWritingTests {
  @Test func lspHeaderCountsBytes() {
    let value: JSONValue = ["t": "é"]
    let expected = Array("Content-Length: 10\r\n\r\n{\"t\":\"é\"}".utf8)
    #expect(framed(value, .lsp) == expected)
    #expect(framed(value, .lsp, withRoom: false) == expected)
  }

  /// Bodies whose lengths cross a power of ten, so the header grows by a digit.
  @Test(arguments: [0, 1, 7, 8, 97, 98, 997, 998, 99_997, 99_998, 1_000_000])
  func lspFramingMatchesTheFramer(padding: Int) {
    let value = JSONValue.string(String(repeating: "x", count: padding))
    let body = value.encoded()
    #expect(framed(value, .lsp) == Framing.lsp.frame(body))
    #expect(framed(value, .lsp, withRoom: false) == Framing.lsp.frame(body))
    #expect(framed(value, .ndjson) == Framing.ndjson.frame(body))
  }

  /// A writer that keeps room for the frame header in front gives only the body as its
  /// text, bytes and byte count.
  @Test func aWriterWithRoomForTheHeaderGivesTheBodyAlone() {
    var json = Framing.lsp.makeWriter()
    JSONValue.array([1, "é"]).write(to: &json)
    #expect(json.text == #"[1,"é"]"#)
    #expect(json.bytes == Array(#"[1,"é"]"#.utf8))
    #expect(json.byteCount == 8)
    #expect(json.withUnsafeBytes { Array($0) } == Array(#"[1,"é"]"#.utf8))
  }

  @Test func ndjsonIsOneLine() {
    let value: JSONValue = ["a": "line\nbreak \u{2028} \u{2029}\r"]
    let bytes = framed(value, .ndjson)
    #expect(bytes.last == UInt8(ascii: "\n"))
    #expect(bytes.dropLast().allSatisfy { $0 >= 0x20 })
    #expect(bytes == Array(#"{"a":"line\nbreak \u2028 \u2029\r"}"#.utf8) + [UInt8(ascii: "\n")])
  }

  @Test func framedBytesAreReadBackByTheFramers() throws {
    let values: [JSONValue] = [
      ["n": 1], "é😀", [1, [2, [3]]], ["s": .string(String(repeating: "ab\"", count: 5_000))],
    ]
    var lsp = LSPFramer(maxMessageBytes: 1 << 20)
    var ndjson = NDJSONFramer(maxMessageBytes: 1 << 20)
    for value in values {
      lsp.push(framed(value, .lsp))
      ndjson.push(framed(value, .ndjson))
    }
    for value in values {
      #expect(try lsp.next().map { try JSONValue.parse($0) } == value)
      #expect(try ndjson.next().map { try JSONValue.parse($0) } == value)
    }
    #expect(try lsp.next() == nil)
    #expect(try ndjson.next() == nil)
  }
}
