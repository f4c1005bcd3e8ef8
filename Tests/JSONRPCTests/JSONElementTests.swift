import Dispatch
import Testing

@testable import JSONRPC

@Suite("JSONElement")
struct JSONElementTests {
  static let text = #"""
    {"s":"a\"b","i":-7,"d":2.5,"t":true,"f":false,"n":null,"a":[1,[2,{"x":[]}],"z"],"o":{"k":{"deep":[1,2]},"l":3},
     "dup":1,"\u0069d":"escaped name","dup":2,"":"empty name","nul":"a\u0000b"}
    """#

  func document() throws -> JSONDocument {
    try JSONDocument(parsing: Array(Self.text.utf8))
  }

  @Test func kindsAndScalars() throws {
    let root = try document().root
    #expect(root.kind == .object)
    #expect(root["s"]?.kind == .string && root["s"]?.stringValue == "a\"b")
    #expect(root["i"]?.kind == .int && root["i"]?.intValue == -7 && root["i"]?.doubleValue == -7)
    #expect(root["d"]?.kind == .double && root["d"]?.doubleValue == 2.5 && root["d"]?.intValue == nil)
    #expect(root["t"]?.kind == .bool && root["t"]?.boolValue == true)
    #expect(root["f"]?.boolValue == false)
    #expect(root["n"]?.kind == .null && root["n"]?.isNull == true)
    #expect(root["a"]?.kind == .array)
    // Accessors of another kind are nil.
    #expect(root["s"]?.intValue == nil && root["s"]?.boolValue == nil && root["i"]?.stringValue == nil)
    #expect(root["n"]?.boolValue == nil && root["t"]?.isNull == false && root["a"]?.stringValue == nil)
    #expect(root["s"]?.count == nil && root["s"]?.elements == nil && root["s"]?.members == nil)
    #expect(root["s"]?["x"] == nil && root["s"]?[0] == nil)
  }

  @Test func stringsWithoutACopy() throws {
    let root = try document().root
    #expect(root["nul"]?.withUTF8 { Array($0) } == [0x61, 0, 0x62])
    #expect(root["i"]?.withUTF8 { _ in 1 } == nil)
    #expect(root["s"]?.isString("a\"b") == true)
    #expect(root["s"]?.isString("a\"") == false)
    #expect(root["i"]?.isString("-7") == false)
  }

  @Test func memberLookupComparesUnescapedBytesAndTheLastRepeatWins() throws {
    let root = try document().root
    #expect(root["dup"]?.intValue == 2)
    #expect(root["id"]?.stringValue == "escaped name")
    #expect(root[""]?.stringValue == "empty name")
    #expect(root["missing"] == nil)
    #expect(root["o"]?["k"]?["deep"]?[1]?.intValue == 2)
    #expect(root["o"]?["l"]?.intValue == 3)
    // Canonically equivalent but other bytes: not the same name (RFC 8259 §8.3).
    let accents = try JSONDocument(parsing: Array(#"{"é":1}"#.utf8)).root
    #expect(accents["é"]?.intValue == 1)
    #expect(accents["e\u{301}"] == nil)
  }

  @Test func arraysByPositionAndInOrder() throws {
    let array = try #require(try document().root["a"])
    #expect(array.count == 3)
    #expect(array[0]?.intValue == 1 && array[2]?.stringValue == "z")
    #expect(array[3] == nil && array[-1] == nil)
    #expect(array[1]?[1]?["x"]?.count == 0)
    let elements = try #require(array.elements)
    #expect(elements.count == 3 && elements.underestimatedCount == 3)
    #expect(elements.map(\.kind) == [.int, .array, .string])
    #expect(Array(elements).map(\.jsonValue) == [1, [2, ["x": []]], "z"])
  }

  @Test func membersInInputOrderWithRepeats() throws {
    let root = try document().root
    let members = try #require(root.members)
    #expect(members.count == 13 && root.count == 13)
    #expect(
      members.map(\.key) == ["s", "i", "d", "t", "f", "n", "a", "o", "dup", "id", "dup", "", "nul"])
    #expect(members.filter { $0.key == "dup" }.map { $0.value.intValue } == [1, 2])
    #expect(members.first { _ in true }?.name.kind == .string)
  }

  /// The tape keeps a container's count in 24 bits, saturating at 2^24 − 1: from there on,
  /// `count` walks the container for the true number. (A tape whose count field is
  /// saturated over three members stands in for a container of 16 million.)
  @Test func aCountTheTapeSaturatedIsFoundByWalking() {
    for value: JSONValue in [["a": nil, "b": 1, "c": [2]], [nil, 1, [2]]] {
      let source = JSONDocument(value)
      let saturated = JSONDocument(tapeCount: source.tapeCount, stringCount: source.storage.stringCount) {
        words, strings in
        words.update(from: source.storage.words, count: source.tapeCount)
        strings.update(from: source.storage.strings, count: source.storage.stringCount)
        words[1] |= UInt64(JSONDocument.Tape.countLimit) << 32
      }
      #expect(saturated.root.count == 3, "\(value)")
      #expect(saturated.root.members.map(\.count) ?? saturated.root.elements?.count == 3, "\(value)")
    }
  }

  @Test func conversionToJSONValue() throws {
    let value = try document().root.jsonValue
    #expect(value["dup"] == 2)
    #expect(value["a"] == [1, [2, ["x": []]], "z"])
    #expect(value["o"] == ["k": ["deep": [1, 2]], "l": 3])
    #expect(value.objectValue?.count == 12)
  }

  @Test func elementsCrossThreadsAndOutliveTheirParser() throws {
    var element: JSONElement?
    do {
      let parser = JSONParser()
      element = try parser.parse(Array(#"{"uri":"mem:a","rows":[1,2,3]}"#.utf8)).root["rows"]
      _ = try parser.parse(Array(#"{"other":[4,5,6,7]}"#.utf8))
    }
    let rows = element
    let sum = DispatchQueue.global().sync { rows?.elements?.reduce(0) { $0 + ($1.intValue ?? 0) } }
    #expect(sum == 6)
  }

  @Test func equalityIsByValue() throws {
    let a = try JSONDocument(parsing: Array(#"{"x":[1,2.5],"y":"s"}"#.utf8)).root
    let b = try JSONDocument(parsing: Array(#"{ "y" : "s", "x" : [ 1, 2.50 ] }"#.utf8)).root
    #expect(a == b)
    #expect(a["x"] != b["y"])
    #expect(a.description == #"{"x":[1,2.5],"y":"s"}"#)
  }
}
