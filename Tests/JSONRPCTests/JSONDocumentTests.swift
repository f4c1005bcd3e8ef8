import JSONRPC
import Testing

@Suite("JSONDocument")
struct JSONDocumentTests {
  @Test(
    "built from a JSONValue, reads back the same",
    arguments: [
      JSONValue.null, true, false, 0, -1, .int(.max), .int(.min), 2.5, "", "é😀\u{0}", [], [:], [1, "a", nil, [true]],
      ["a": ["b": [1, 2]], "c": [:], "": ""], .double(.infinity), .double(-0x1p63),
    ])
  func builtFromValue(value: JSONValue) {
    let element = JSONElement(value)
    #expect(element.jsonValue == value)
    #expect(element == JSONElement(value))
  }

  @Test func integralDoublesBuiltFromValuesAreIntegers() {
    #expect(JSONElement(.double(7)).kind == .int)
    #expect(JSONElement(.double(7)).intValue == 7)
    #expect(JSONElement(.double(0x1p63)).kind == .double)
  }

  /// The same tape shape as simdjson's: walked the same way, a built document and a parsed
  /// one give the same kinds, counts and names in the same order.
  @Test func builtDocumentsHaveTheParsersShape() throws {
    let value: JSONValue = [["a": [1, 2.5, "x"]], [], [:], [[[nil]]], "s", true]
    let built = JSONDocument(value).root
    let parsed = try JSONDocument(parsing: value.encoded()).root
    func shape(_ e: JSONElement) -> String {
      switch e.kind {
      case .array: return "[\(e.count!):" + e.elements!.map(shape).joined(separator: ",") + "]"
      case .object:
        return "{\(e.count!):" + e.members!.map { "\($0.key)=" + shape($0.value) }.joined(separator: ",") + "}"
      default: return "\(e.kind)"
      }
    }
    #expect(shape(built) == shape(parsed))
    #expect(shape(built) == "[6:{1:a=[3:int,double,string]},[0:],{0:},[1:[1:[1:null]]],string,bool]")
  }

  @Test func scalarsAtTheTop() throws {
    #expect(try JSONDocument(parsing: Array("null".utf8)).root.isNull)
    #expect(try JSONDocument(parsing: Array(" \"x\" ".utf8)).root.stringValue == "x")
    #expect(try JSONDocument(parsing: Array("-1.5".utf8)).root.doubleValue == -1.5)
  }

  @Test func longStringsAreKeptWhole() throws {
    let long = String(repeating: "é✓", count: 300_000)
    let document = try JSONDocument(parsing: Array(("[\"" + long + "\",1]").utf8))
    #expect(document.root[0]?.stringValue == long)
    #expect(document.root[1]?.intValue == 1)
  }
}
