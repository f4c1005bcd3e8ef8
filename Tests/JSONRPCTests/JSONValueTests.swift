import Foundation
import JSONRPC
import Testing

@Suite("JSONValue")
struct JSONValueTests {
  @Test(
    "round trips",
    arguments: [
      "null", "true", "false", "7", "\"7\"", "-3", "9007199254740991", "-9007199254740991",
      "9223372036854775807", "-9223372036854775808", "1.5", "-0.25", "[]", "{}", "[1,\"a\",null,[true]]",
      "{\"a\":{\"b\":[1,2]},\"z\":\"/x\"}", "\"é ✓ 😀\"", "\"a\\\"b\\\\c\\nd\\u0001\"",
    ])
  func roundTrip(text: String) throws {
    let value = try JSONValue.parse(text)
    #expect(value.jsonText == text)
    #expect(try JSONValue.parse(value.encoded()) == value)
  }

  @Test func numberKinds() throws {
    #expect(try JSONValue.parse("7") == .int(7))
    #expect(try JSONValue.parse("\"7\"") == .string("7"))
    #expect(try JSONValue.parse("7.0") == .int(7))
    #expect(try JSONValue.parse("7.5") == .double(7.5))
    #expect(try JSONValue.parse("9007199254740991") == .int(9_007_199_254_740_991))
    #expect(try JSONValue.parse("-12") == .int(-12))
    #expect(try JSONValue.parse("true") == .bool(true))
    #expect(try JSONValue.parse("1") != .bool(true))
    #expect(try JSONValue.parse("0") == .int(0))
    #expect(try JSONValue.parse("false") == .bool(false))
  }

  @Test func writerMatchesJSONEncoderSortedKeys() throws {
    let value: JSONValue = ["b": [1, 2.5, "x/y"], "a": nil, "c": ["é": true, "A": false]]
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    #expect(value.jsonText == String(decoding: try encoder.encode(value), as: UTF8.self))
  }

  @Test func codableInsideOtherTypes() throws {
    struct Wrapper: Codable, Equatable {
      var id: JSONValue
      var rest: [String: JSONValue]
    }
    let text = "{\"id\":9007199254740991,\"rest\":{\"s\":\"7\",\"d\":1.5,\"b\":true,\"n\":null,\"a\":[1]}}"
    let decoded = try JSONDecoder().decode(Wrapper.self, from: Data(text.utf8))
    #expect(decoded.id == .int(9_007_199_254_740_991))
    #expect(decoded.rest == ["s": "7", "d": 1.5, "b": true, "n": nil, "a": [1]])
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    #expect(try JSONDecoder().decode(Wrapper.self, from: encoder.encode(decoded)) == decoded)
  }

  @Test func nonFiniteDoubleIsWrittenNull() {
    #expect(JSONValue.array([.double(.nan), .double(.infinity)]).jsonText == "[null,null]")
  }

  @Test func accessors() {
    let value: JSONValue = ["a": [1, "x"], "b": 2.5]
    #expect(value["a"]?[1]?.stringValue == "x")
    #expect(value["a"]?[0]?.intValue == 1)
    #expect(value["a"]?[5] == nil)
    #expect(value["b"]?.doubleValue == 2.5)
    #expect(value["b"]?.intValue == nil)
    #expect(value["zz"] == nil)
    #expect(JSONValue.null.isNull)
  }

  @Test(
    "invalid texts are parse errors",
    arguments: [
      "", "{", "[\",]\"],", "{\"a\" 1}", "nul", "\"\\ud800\"", "\"\\udc00\"",
      "\"a\u{01}\"", "1 2", "'a'", "01", "-01", "1.", ".5", "+1", "-", "1e", "[1,,2]", "\"\\x\"", "tru", "1e400",
      "\"\\ud83d x\"", "[-]", "{\"a\"}",
    ])
  func invalid(text: String) {
    #expect(throws: JSONParseError.self) { try JSONValue.parse(text) }
  }

  /// RFC 8259 has no trailing commas (Foundation's `JSONDecoder` read them leniently);
  /// the message says where the comma is.
  @Test(arguments: [
    ("[1,]", "line 1, column 4"), ("{\"a\":1,}", "line 1, column 8"), ("[1 ,\n]", "line 2, column 1"),
  ])
  func trailingCommasAreParseErrors(text: String, location: String) {
    #expect {
      try JSONValue.parse(text)
    } throws: { error in
      let message = (error as? JSONParseError)?.description ?? ""
      return message.contains("(a trailing comma) at \(location)")
    }
  }

  @Test func escapesAndNumbers() throws {
    #expect(try JSONValue.parse(#""\u00e9\ud83d\ude00\/\b\f\t""#) == "é😀/\u{08}\u{0C}\t")
    #expect(try JSONValue.parse("-0") == .int(0))
    #expect(try JSONValue.parse("1E+2") == .int(100))
    #expect(try JSONValue.parse("2.5e-1") == .double(0.25))
    #expect(try JSONValue.parse("18446744073709551616") == .double(18_446_744_073_709_551_616))
    #expect(try JSONValue.parse(" \t\r\n{ \"a\" : [ ] } \n") == ["a": []])
  }

  @Test func commasInsideStringsAreNotTrailingCommas() throws {
    #expect(try JSONValue.parse(#"["a,]","\\",",}"]"#) == ["a,]", "\\", ",}"])
  }

  @Test func invalidUTF8IsAParseError() {
    #expect(throws: JSONParseError.self) { try JSONValue.parse([0x22, 0xFF, 0x22]) }
    #expect(throws: JSONParseError.self) { try JSONValue.parse([0x22, 0xED, 0xA0, 0x80, 0x22]) }  // Encoded surrogate.
    #expect(throws: JSONParseError.self) { try JSONValue.parse([0x22, 0xC3, 0x22]) }  // Truncated sequence.
  }

  @Test func deepNestingIsAnErrorNotACrash() {
    let open = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
    let close = [UInt8](repeating: UInt8(ascii: "]"), count: 100_000)
    #expect(throws: JSONParseError.self) { try JSONValue.parse(open + close) }
    let deepObjects = String(repeating: "{\"a\":", count: 100_000) + "1" + String(repeating: "}", count: 100_000)
    #expect(throws: JSONParseError.self) { try JSONValue.parse(deepObjects) }
  }
}
