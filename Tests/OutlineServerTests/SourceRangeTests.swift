import Foundation
import JSONRPC
import OutlineTestSupport
import Testing

/// PROTOCOL §9: `visibleRows {include: ["range"]}` and `itemAtPosition`.
@Suite struct SourceRangeTests {
  /// `order: title` shows amy, bob, zed: not source order. Line 10 holds é (2 UTF-8
  /// bytes) and 😀 (4 bytes, 2 UTF-16 units) before the end of amy's mapping.
  static let text = """
    title: T
    groups:
      - id: g
        title: G
        order: title
        expanded: true
        rows:
          - id: zed
            title: Zed

          - {id: amy, title: "Amy é😀", detail: x}
          - {id: bob, title: Bob}
      - id: h
        title: H
        rows: [{id: hidden, title: Hidden}]

    """

  /// The column of amy's `}` + 1 on line 10, in each encoding.
  static let amyEnd = ["utf-8": 49, "utf-16": 46, "utf-32": 45]

  static func range(_ l0: Int, _ c0: Int, _ l1: Int, _ c1: Int) -> JSONValue {
    [
      "start": ["line": .int(Int64(l0)), "character": .int(Int64(c0))],
      "end": ["line": .int(Int64(l1)), "character": .int(Int64(c1))],
    ]
  }

  func ranges(_ s: InProcessServer, _ uri: String) -> [String: JSONValue] {
    let rows = s.result("visibleRows", ["uri": .string(uri), "include": ["range"]])["rows"]?.arrayValue ?? []
    var result: [String: JSONValue] = [:]
    for r in rows { result[r["id"]?.stringValue ?? "?"] = r["range"] ?? .null }
    return result
  }

  func item(_ s: InProcessServer, _ uri: String, _ line: Int, _ character: Int) -> JSONValue {
    s.result(
      "itemAtPosition",
      ["uri": .string(uri), "position": ["line": .int(Int64(line)), "character": .int(Int64(character))]])
  }

  /// Each row's range is its mapping node, libyaml's start and end marks, in the encoding.
  @Test(arguments: ["utf-8", "utf-16", "utf-32"])
  func rowsCarryTheirMappingsRange(_ encoding: String) throws {
    let s = try InProcessServer().start(encoding: encoding)
    s.open("mem:r", Self.text)
    let r = ranges(s, "mem:r")
    #expect(r["g"] == Self.range(2, 4, 12, 2))
    // A block mapping ends where the next token starts: the blank line is zed's.
    #expect(r["zed"] == Self.range(7, 8, 10, 6))
    #expect(r["amy"] == Self.range(10, 8, 10, Self.amyEnd[encoding]!))
    #expect(r["bob"] == Self.range(11, 8, 11, 29))
    #expect(r["h"] == Self.range(12, 4, 15, 0))
    // Without include, no range; with both, both.
    #expect(s.rows("mem:r")[0]["range"] == nil)
    let both = s.result("visibleRows", ["uri": "mem:r", "count": 1, "include": ["range", "lines"]])["rows"]?[0]
    #expect(both?["range"] != nil && both?["lines"] != nil)
  }

  @Test func aTextWithoutAFinalLineBreakEndsItsLastRangeAtItsEnd() throws {
    let s = try InProcessServer.started()
    s.open("mem:r", "groups:\n  - title: A")
    // libyaml's end mark is at column 0 of a line the text does not have.
    #expect(ranges(s, "mem:r")["A"] == Self.range(1, 4, 1, 12))
  }

  /// `version` counts changes to the visible list, heights and layout; an
  /// edit that only moves rows in the text moves their ranges, not the version.
  @Test func rangesFollowEditsWithoutMovingTheVersion() throws {
    let s = try InProcessServer.started()
    s.open("mem:r", Self.text)
    let r = s.result(
      "changeOutline",
      ["uri": "mem:r", "edits": [["range": Self.range(1, 0, 1, 0), "text": "# Contacts\n# two lines\n"]]])
    #expect(r["applied"] == true)
    #expect(r["changes"] == [])
    #expect(r["version"] == 1)
    #expect(ranges(s, "mem:r")["g"] == Self.range(4, 4, 14, 2))
    #expect(item(s, "mem:r", 13, 15)["id"] == "bob")
  }

  /// While the latest text has errors the outline is the last good one: its
  /// ranges are that text's lines and columns, placed on the latest text.
  @Test func aBrokenTextKeepsTheLastGoodRanges() throws {
    let s = try InProcessServer.started()
    s.open("mem:r", Self.text)
    let broken = s.result(
      "changeOutline", ["uri": "mem:r", "edits": [["range": Self.range(0, 0, 0, 0), "text": "x: [\n"]]])
    #expect(broken["applied"] == false)
    #expect(ranges(s, "mem:r")["g"] == Self.range(2, 4, 12, 2))
  }

  @Test(arguments: ["utf-8", "utf-16", "utf-32"])
  func itemAtPosition(_ encoding: String) throws {
    let s = try InProcessServer().start(encoding: encoding)
    s.open("mem:r", Self.text)
    // Inside a row: the rows are reordered, the index is where it is shown.
    expectJSON(item(s, "mem:r", 8, 10), ["id": "zed", "kind": "row", "index": 3, "ancestors": ["g"]])
    expectJSON(item(s, "mem:r", 10, 30), ["id": "amy", "kind": "row", "index": 1, "ancestors": ["g"]])
    expectJSON(item(s, "mem:r", 11, 15), ["id": "bob", "kind": "row", "index": 2, "ancestors": ["g"]])
    // On a group's own lines.
    expectJSON(item(s, "mem:r", 3, 6), ["id": "g", "kind": "group", "index": 0, "ancestors": []])
    #expect(item(s, "mem:r", 6, 4)["id"] == "g")
    #expect(item(s, "mem:r", 2, 4)["id"] == "g")
    // Between items: the blank line after a row is the row's (its mapping ends where the
    // next token starts); the `- ` before a row is its group's.
    #expect(item(s, "mem:r", 9, 0)["id"] == "zed")
    #expect(item(s, "mem:r", 10, 6)["id"] == "g")
    // After the emoji: the detail's `x` is amy's, the character after its `}` is the group's.
    let end = Self.amyEnd[encoding]!
    #expect(item(s, "mem:r", 10, end - 2)["id"] == "amy")
    #expect(item(s, "mem:r", 10, end)["id"] == "g")
    // A hidden row: index null.
    expectJSON(item(s, "mem:r", 14, 20), ["id": "hidden", "kind": "row", "index": nil, "ancestors": ["h"]])
    // Before the first group, on the top-level keys, past the end.
    #expect(item(s, "mem:r", 0, 3) == .null)
    #expect(item(s, "mem:r", 1, 0) == .null)
    #expect(item(s, "mem:r", 15, 0) == .null)
    #expect(item(s, "mem:r", 40, 0) == .null)
    // A character past the end of its line is the line's end.
    #expect(item(s, "mem:r", 13, 500)["id"] == "h")
  }

  /// Every item of the contacts example is found at the start of its range, in each encoding.
  @Test(arguments: ["utf-8", "utf-16", "utf-32"])
  func everyItemIsAtTheStartOfItsRange(_ encoding: String) throws {
    let s = try InProcessServer().start(encoding: encoding)
    s.open("mem:c", contactsText())
    _ = s.result("expandAll", ["uri": "mem:c"])
    let rows = s.result("visibleRows", ["uri": "mem:c", "include": ["range"]])["rows"]?.arrayValue ?? []
    #expect(rows.count > 30)
    for row in rows {
      let start = row["range"]?["start"] ?? .null
      let found = s.result("itemAtPosition", ["uri": "mem:c", "position": start])
      #expect(found["id"] == row["id"], "\(row["id"] ?? .null) at \(start)")
      #expect(found["index"] == row["index"])
    }
  }

  @Test func aFileOutlineIsReadAgainForItsRanges() throws {
    let file = writeFixture(Self.text, name: "ranges.yaml")
    let uri = file.absoluteString
    let s = try InProcessServer.started()
    _ = s.result("openOutline", ["uri": .string(uri)])
    #expect(ranges(s, uri)["zed"] == Self.range(7, 8, 10, 6))
    #expect(item(s, uri, 8, 10)["id"] == "zed")
    // Once read, it is the text as read: a later change of the file does not matter.
    try "groups: []\n".write(to: file, atomically: false, encoding: .utf8)
    #expect(item(s, uri, 11, 15)["id"] == "bob")
  }

  @Test func badPositionsNameTheField() throws {
    let s = try InProcessServer.started()
    s.open("mem:r", Self.text)
    #expect(s.error("itemAtPosition", ["uri": "mem:r"])["message"] == "\"position\" is missing")
    #expect(
      s.error("itemAtPosition", ["uri": "mem:r", "position": ["line": 0]])["message"]
        == "\"position.character\" is missing")
    #expect(
      s.error("itemAtPosition", ["uri": "mem:r", "position": ["line": -1, "character": 0]])["message"]
        == "\"position.line\" must be a non-negative integer")
    #expect(s.errorCode("itemAtPosition", ["uri": "mem:none", "position": ["line": 0, "character": 0]]) == -32010)
  }
}
