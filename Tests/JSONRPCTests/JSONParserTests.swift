import Dispatch
import Foundation
import JSONRPC
import Synchronization
import Testing

@Suite("JSONParser (simdjson)")
struct JSONParserTests {
  /// The root of `text`, parsed, failing the test at the caller on error.
  func root(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> JSONElement? {
    do {
      return try JSONDocument(parsing: Array(text.utf8)).root
    } catch {
      Issue.record("not JSON: \(text): \(error)", sourceLocation: sourceLocation)
      return nil
    }
  }

  @Test(
    "numbers keep JSONValue's kinds",
    arguments: [
      ("7", JSONValue.int(7)), ("-12", .int(-12)), ("7.0", .int(7)), ("1e2", .int(100)), ("1E+2", .int(100)),
      ("-0", .int(0)), ("-0.0", .int(0)), ("1e-400", .int(0)), ("100e-2", .int(1)), ("7.5", .double(7.5)),
      ("2.5e-1", .double(0.25)), ("1.5e300", .double(1.5e300)),
      ("9223372036854775807", .int(.max)), ("-9223372036854775808", .int(.min)),
      ("9223372036854775808", .double(0x1p63)), ("18446744073709551615", .double(0x1p64)),
      ("18446744073709551616", .double(0x1p64)), ("-9223372036854775809", .double(-0x1p63)),
      ("123456789012345678901234567890", .double(1.2345678901234568e29)),
      ("-123456789012345678901234567890", .double(-1.2345678901234568e29)),
    ])
  func numbers(text: String, value: JSONValue) throws {
    #expect(root(text)?.jsonValue == value)
    #expect(root("[\(text)]")?.jsonValue == .array([value]))
    #expect(root("{\"n\":\(text)}")?["n"]?.jsonValue == value)
  }

  @Test func integersBeyond64BitsAreDoublesWhereverTheyAre() throws {
    let text =
      #"{"a":[1,123456789012345678901234567890,"123456789012345678901234567890"],"#
      + #""\"99999999999999999999999":-99999999999999999999999,"b":12345678901234567890123e0,"c":9007199254740993}"#
    let value = try #require(root(text)).jsonValue
    #expect(value["a"] == [1, .double(1.2345678901234568e29), "123456789012345678901234567890"])
    #expect(value["\"99999999999999999999999"] == .double(-1e23))
    #expect(value["b"] == .double(1.2345678901234568e22))
    // An integer within 64 bits next to a big one keeps every digit.
    #expect(value["c"] == .int(9_007_199_254_740_993))
  }

  @Test func numbersBeyondTheRangeOfADoubleAreErrors() {
    for text in ["1e400", "-1e400", String(repeating: "9", count: 400), "[1,\(String(repeating: "1", count: 320))]"] {
      #expect(throws: JSONParseError.self, "\(text.prefix(20))") { try JSONDocument(parsing: Array(text.utf8)) }
    }
  }

  @Test(
    "unpaired surrogate escapes are errors",
    arguments: [
      #""\ud800""#, #""\udc00""#, #""\udfff""#, #""\ud800x""#, #""\ud800\u0041""#, #""\udc00\ud800""#,
      #""\ud800\ud800""#, #""a\udbffb""#, #"{"\ud800":1}"#,
    ])
  func unpairedSurrogates(text: String) {
    #expect {
      try JSONDocument(parsing: Array(text.utf8))
    } throws: { error in
      (error as? JSONParseError)?.description.contains("unpaired surrogate") == true
    }
  }

  @Test func pairedSurrogatesAndEscapes() {
    #expect(root(#""\ud83d\ude00\u00e9\/\b\f\n\r\t\"\\""#)?.stringValue == "😀é/\u{08}\u{0C}\n\r\t\"\\")
    #expect(root(#""a\u0000b""#)?.withUTF8 { Array($0) } == [0x61, 0, 0x62])
  }

  @Test("other texts that are not JSON", arguments: ["", " \n", "[1,]", "01", "1 2", "[1]x", "\"a\u{01}\"", "nul"])
  func notJSON(text: String) {
    #expect(throws: JSONParseError.self) { try JSONDocument(parsing: Array(text.utf8)) }
  }

  @Test func invalidUTF8() {
    for bytes: [UInt8] in [[0x22, 0xFF, 0x22], [0x22, 0xC3, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0xC0, 0xAF]] {
      #expect(throws: JSONParseError.self) { try JSONDocument(parsing: bytes) }
    }
  }

  @Test func nestingUpTo512LevelsIsRead() throws {
    for depth in [511, 512] {
      let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
      #expect(root(arrays)?.count == 1)
      let objects = String(repeating: "{\"a\":", count: depth) + "1" + String(repeating: "}", count: depth)
      #expect(root(objects)?["a"] != nil)
      let scalar = String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
      #expect(root(scalar)?.count == 1)
    }
    // An empty innermost object is a level too.
    let empty = String(repeating: "{\"a\":", count: 512) + "{}" + String(repeating: "}", count: 512)
    #expect(throws: JSONParseError.self) { try JSONDocument(parsing: Array(empty.utf8)) }
    for depth in [513, 100_000] {
      let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
      #expect(throws: JSONParseError.self) { try JSONDocument(parsing: Array(arrays.utf8)) }
      let mixed = String(repeating: "[{\"a\":", count: depth / 2 + 1) + String(repeating: "}]", count: depth / 2 + 1)
      #expect(throws: JSONParseError.self) { try JSONDocument(parsing: Array(mixed.utf8)) }
    }
  }

  @Test func aByteOrderMarkIsSkipped() {
    #expect(root("\u{FEFF}{\"a\":1}")?["a"]?.intValue == 1)
    #expect(root("\u{FEFF}5")?.intValue == 5)
  }

  @Test func aDocumentOutlivesTheParsersNextTexts() throws {
    let parser = JSONParser()
    let first = try parser.parse(Array(#"{"uri":"file:///a","n":[1,2,3]}"#.utf8))
    let big = try parser.parse(Array(("[\"" + String(repeating: "x", count: 2 << 20) + "\"]").utf8))
    let small = try parser.parse(Array(#"{"uri":"file:///b"}"#.utf8))
    #expect(first.root["uri"]?.stringValue == "file:///a")
    #expect(first.root["n"]?.jsonValue == [1, 2, 3])
    #expect(big.root[0]?.withUTF8 { $0.count } == 2 << 20)
    #expect(small.root["uri"]?.stringValue == "file:///b")
  }

  @Test func parsesInPlaceAsFromACopy() throws {
    let text = Array(#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":[true,false,null,"s",1.5]}}"#.utf8)
    let parser = JSONParser()
    let inPlace = try PaddedBytes.withCopy(of: text) { bytes in
      Result { () throws(JSONParseError) in try parser.parse(bytes) }
    }.get()
    #expect(inPlace.root == (try JSONDocument(parsing: text)).root)
  }

  @Test func sharedParsersServeManyThreadsAtOnce() {
    let texts = (0..<64).map { #"{"id":\#($0),"s":"\#(String(repeating: "y", count: $0 * 100))"}"# }
    let failures = Atomic(0)
    DispatchQueue.concurrentPerform(iterations: texts.count) { i in
      for _ in 0..<20 {
        let root = try? JSONDocument(parsing: Array(texts[i].utf8)).root
        if root?["id"]?.intValue != Int64(i) || root?["s"]?.withUTF8({ $0.count }) != i * 100 {
          failures.add(1, ordering: .relaxed)
        }
      }
    }
    #expect(failures.load(ordering: .relaxed) == 0)
  }

  /// The reader agrees with Foundation's decoder (the parser used before) on these texts.
  @Test(
    "agrees with Foundation",
    arguments: [
      #"{"jsonrpc":"2.0","id":17,"method":"toggleSection","params":{"uri":"file:///tmp/o.yaml","section":"g123"}}"#,
      #"[1,-2,3.25,-0.5e-3,1E10,true,false,null,"",[],{},[[]],{"a":{}}]"#,
      #"{"é":"✓","😀":["\u00e9","\ud83d\ude00"],"tab":"a\tb","esc":"\"\\\/"}"#,
      "  {\n\t\"a\" : [ 1 , 2 ]\r\n}  ", "\"just a string\"", "42", "-0.0", "1e22", "5e-324", "1.7976931348623157e308",
      "[9007199254740991,-9007199254740991,9223372036854775807,-9223372036854775808,18446744073709551616]",
    ])
  func agreesWithFoundation(text: String) throws {
    let oracle = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    #expect(root(text)?.jsonValue == oracle)
  }
}
