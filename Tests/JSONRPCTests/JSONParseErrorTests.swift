import JSONRPC
import Testing

@Suite("JSONParseError names the fault and where it is")
struct JSONParseErrorTests {
  func message(_ bytes: [UInt8]) -> String {
    do {
      _ = try JSONDocument(parsing: bytes)
      return "parsed"
    } catch {
      return error.description
    }
  }

  @Test(
    arguments: [
      ("", "no value (the text is empty or blank)"),
      (" \n ", "no value (the text is empty or blank)"),
      ("[1,]", "unexpected ']' after ',' (a trailing comma) at line 1, column 4"),
      ("{\"a\":1,}", "unexpected '}' after ',' (a trailing comma) at line 1, column 8"),
      ("{\"a\" 1}", "unexpected '1', expected ':' at line 1, column 6"),
      ("{1:2}", "unexpected '1', expected a member name (a string) at line 1, column 2"),
      ("[1 2]", "unexpected '2', expected ',' or ']' at line 1, column 4"),
      ("{\"a\":1]", "unexpected ']', expected ',' or '}' at line 1, column 7"),
      ("[1,", "unexpected end of text, expected a value at line 1, column 4"),
      ("[1", "unexpected end of text, expected ',' or ']' at line 1, column 3"),
      ("tru", "invalid literal (expected true, false or null) at line 1, column 1"),
      ("[nulls]", "invalid literal (expected true, false or null) at line 1, column 2"),
      ("01", "invalid number at line 1, column 1"),
      ("[-]", "invalid number at line 1, column 2"),
      ("1.e5", "invalid number at line 1, column 1"),
      ("[1e400]", "number 1e400 beyond the range of a double at line 1, column 2"),
      (#""\ud800""#, #"unpaired surrogate escape \ud800 (a high surrogate without a low one) at line 1, column 2"#),
      (#""\udc00""#, #"unpaired surrogate escape \udc00 (a low surrogate without a high one) at line 1, column 2"#),
      (#""\x""#, #"invalid escape \x at line 1, column 2"#),
      (#""\u12G4""#, #"invalid \u escape (expected 4 hex digits) at line 1, column 2"#),
      ("\"a\u{01}\"", "unescaped control character U+0001 in a string at line 1, column 3"),
      ("\"abc", "unterminated string at line 1, column 1"),
      ("[1] x", "unexpected 'x' after the value at line 1, column 5"),
      ("'a'", "unexpected ''', expected a value at line 1, column 1"),
      ("\n\n  {", "unexpected end of text, expected a member name at line 3, column 4"),
      ("[\"é\", x]", "unexpected 'x', expected a value at line 1, column 7"),
      ("[\u{0B}]", "unexpected U+000B, expected a value at line 1, column 2"),
    ])
  func fault(text: String, expected: String) {
    #expect(message(Array(text.utf8)) == "not a JSON text: \(expected)")
  }

  @Test func invalidUTF8IsLocated() {
    #expect(message([0x5B, 0x22, 0x61, 0xFF, 0x22, 0x5D]) == "not a JSON text: invalid UTF-8 at line 1, column 4")
    #expect(message([0x22, 0xED, 0xA0, 0x80, 0x22]) == "not a JSON text: invalid UTF-8 at line 1, column 2")
  }

  @Test func tooDeepIsLocated() {
    let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
    #expect(message(Array(deep.utf8)) == "not a JSON text: nested deeper than 512 levels at line 1, column 513")
  }

  @Test func aByteOrderMarkDoesNotShiftTheLocation() {
    #expect(
      message(Array("\u{FEFF}[1,]".utf8))
        == "not a JSON text: unexpected ']' after ',' (a trailing comma) at line 1, column 5")
  }

  @Test func theWireMessageSaysParseError() {
    guard case .single(.invalid(nil, let error)) = Message.decodeBody(Array("{\"a\":1,}".utf8)) else {
      Issue.record("not refused")
      return
    }
    #expect(error.code == .parseError)
    #expect(
      error.message == "parse error: not a JSON text: unexpected '}' after ',' (a trailing comma) at line 1, column 8")
  }
}
