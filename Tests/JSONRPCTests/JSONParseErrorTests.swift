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
      ("[1,]", "unexpected ']' after ',' (a trailing comma) at line 1, column 4 (byte 3)"),
      ("{\"a\":1,}", "unexpected '}' after ',' (a trailing comma) at line 1, column 8 (byte 7)"),
      ("{\"a\" 1}", "unexpected '1', expected ':' at line 1, column 6 (byte 5)"),
      ("{1:2}", "unexpected '1', expected a member name (a string) at line 1, column 2 (byte 1)"),
      ("[1 2]", "unexpected '2', expected ',' or ']' at line 1, column 4 (byte 3)"),
      ("{\"a\":1]", "unexpected ']', expected ',' or '}' at line 1, column 7 (byte 6)"),
      ("[1,", "unexpected end of text, expected a value at line 1, column 4 (byte 3)"),
      ("[1", "unexpected end of text, expected ',' or ']' at line 1, column 3 (byte 2)"),
      ("tru", "invalid literal (expected true, false or null) at line 1, column 1 (byte 0)"),
      ("[nulls]", "invalid literal (expected true, false or null) at line 1, column 2 (byte 1)"),
      ("01", "invalid number at line 1, column 1 (byte 0)"),
      ("[-]", "invalid number at line 1, column 2 (byte 1)"),
      ("1.e5", "invalid number at line 1, column 1 (byte 0)"),
      ("[1e400]", "number 1e400 beyond the range of a double at line 1, column 2 (byte 1)"),
      (
        #""\ud800""#,
        #"unpaired surrogate escape \ud800 (a high surrogate without a low one) at line 1, column 2 (byte 1)"#
      ),
      (
        #""\udc00""#,
        #"unpaired surrogate escape \udc00 (a low surrogate without a high one) at line 1, column 2 (byte 1)"#
      ),
      (#""\x""#, #"invalid escape \x at line 1, column 2 (byte 1)"#),
      (#""\u12G4""#, #"invalid \u escape (expected 4 hex digits) at line 1, column 2 (byte 1)"#),
      ("\"a\u{01}\"", "unescaped control character U+0001 in a string at line 1, column 3 (byte 2)"),
      ("\"abc", "unterminated string at line 1, column 1 (byte 0)"),
      ("[1] x", "unexpected 'x' after the value at line 1, column 5 (byte 4)"),
      ("'a'", "unexpected ''', expected a value at line 1, column 1 (byte 0)"),
      ("\n\n  {", "unexpected end of text, expected a member name at line 3, column 4 (byte 5)"),
      ("[\"é\", x]", "unexpected 'x', expected a value at line 1, column 7 (byte 7)"),
      ("[\u{0B}]", "unexpected U+000B, expected a value at line 1, column 2 (byte 1)"),
      // A valid number with a signed exponent before the fault; a literal run on into a letter.
      ("[1e+5,]", "unexpected ']' after ',' (a trailing comma) at line 1, column 7 (byte 6)"),
      ("[1E-5 2]", "unexpected '2', expected ',' or ']' at line 1, column 7 (byte 6)"),
      ("[trueé]", "invalid literal (expected true, false or null) at line 1, column 2 (byte 1)"),
      // U+E000 is not a surrogate; U+FEBF (EF BA BF) is not a byte order mark.
      (#"["\uE000", x]"#, "unexpected 'x', expected a value at line 1, column 12 (byte 11)"),
      ("\u{FEBF}x", "unexpected '\u{FEBF}', expected a value at line 1, column 1 (byte 0)"),
    ])
  func fault(text: String, expected: String) {
    #expect(message(Array(text.utf8)) == "not a JSON text: \(expected)")
  }

  @Test func aTextOfOneOrTwoBytesIsLocated() {
    #expect(message([0xEF]) == "not a JSON text: invalid UTF-8 at line 1, column 1 (byte 0)")
    #expect(message([0xEF, 0xBB]) == "not a JSON text: invalid UTF-8 at line 1, column 1 (byte 0)")
    #expect(message([0x5B, 0xEF]) == "not a JSON text: invalid UTF-8 at line 1, column 2 (byte 1)")
  }

  @Test func invalidUTF8IsLocated() {
    #expect(
      message([0x5B, 0x22, 0x61, 0xFF, 0x22, 0x5D]) == "not a JSON text: invalid UTF-8 at line 1, column 4 (byte 3)")
    #expect(message([0x22, 0xED, 0xA0, 0x80, 0x22]) == "not a JSON text: invalid UTF-8 at line 1, column 2 (byte 1)")
  }

  @Test func tooDeepIsLocated() {
    let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
    #expect(
      message(Array(deep.utf8)) == "not a JSON text: nested deeper than 512 levels at line 1, column 513 (byte 512)")
  }

  @Test func aByteOrderMarkCountsInBytesNotInColumns() {
    #expect(
      message(Array("\u{FEFF}[1,]".utf8))
        == "not a JSON text: unexpected ']' after ',' (a trailing comma) at line 1, column 4 (byte 6)")
    // A fault on the first byte after the mark is in column 1.
    #expect(
      message(Array("\u{FEFF}]".utf8)).hasSuffix("at line 1, column 1 (byte 3)"), "\(message(Array("\u{FEFF}]".utf8)))")
  }

  @Test func theWireMessageSaysParseError() {
    guard case .single(.invalid(nil, let error)) = Message.decodeBody(Array("{\"a\":1,}".utf8)) else {
      Issue.record("not refused")
      return
    }
    #expect(error.code == .parseError)
    #expect(
      error.message
        == "parse error: not a JSON text: unexpected '}' after ',' (a trailing comma) at line 1, column 8 (byte 7)")
  }
}
