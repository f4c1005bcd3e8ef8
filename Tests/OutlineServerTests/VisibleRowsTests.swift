import Foundation
import JSONRPC
import OutlineTestSupport
import Testing

/// PROTOCOL §4 visibleRows and rowAtOffset, and §8 "The visible list".
@Suite struct VisibleRowsTests {
  let uri: JSONValue = "untitled:small"

  func server() throws -> InProcessServer {
    let s = try InProcessServer.started()
    s.open("untitled:small", smallOutline)
    return s
  }

  /// One group holding `n` rows, open.
  static func longOutline(_ n: Int) -> String {
    "groups:\n  - id: g\n    title: G\n    expanded: true\n    rows:\n"
      + (0..<n).map { "      - title: R\($0)\n" }.joined()
  }

  @Test func aWindowAndTheDefaultCount() throws {
    let s = try server()
    let r = s.result("visibleRows", ["uri": uri, "start": 1, "count": 2])
    #expect(r["total"] == 5)
    #expect(r["contentHeight"] == 5)
    #expect(r["version"] == 1)
    #expect(r["rows"]?.arrayValue?.map { $0["index"] } == [1, 2])
    let rest = s.result("visibleRows", ["uri": uri, "start": 3])
    #expect(rest["rows"]?.arrayValue?.compactMap { $0["id"] } == ["b", "c"])
    #expect(s.result("visibleRows", ["uri": uri, "start": 4, "count": 9])["rows"]?.arrayValue?.count == 1)
  }

  @Test func aStartAtOrPastTheEndGivesNoRows() throws {
    let s = try server()
    #expect(s.result("visibleRows", ["uri": uri, "start": 5])["rows"] == [])
    #expect(s.result("visibleRows", ["uri": uri, "start": 500, "count": 2])["rows"] == [])
  }

  @Test func negativeStartOrCountIsInvalidParamsNamingTheField() throws {
    let s = try server()
    #expect(s.error("visibleRows", ["uri": uri, "start": -1])["message"] == "\"start\" must be a non-negative integer")
    #expect(s.error("visibleRows", ["uri": uri, "count": -1])["message"] == "\"count\" must be a non-negative integer")
    #expect(
      s.error("visibleRows", ["uri": uri, "viewport": ["top": 0]])["message"] == "\"viewport.height\" is missing")
  }

  @Test func countIsCappedAt10000AlsoForAViewport() throws {
    let s = try InProcessServer.started()
    s.open("untitled:long", Self.longOutline(10_050))
    let uri: JSONValue = "untitled:long"
    #expect(s.result("visibleRows", ["uri": uri])["rows"]?.arrayValue?.count == 10_000)
    #expect(s.result("visibleRows", ["uri": uri, "count": 20_000])["rows"]?.arrayValue?.count == 10_000)
    let viewport = s.result("visibleRows", ["uri": uri, "viewport": ["top": 0, "height": 1e9]])
    #expect(viewport["rows"]?.arrayValue?.count == 10_000)
    #expect(viewport["total"] == 10_051)
    #expect(s.result("rowHeights", ["uri": uri, "count": 20_000])["heights"]?.arrayValue?.count == 10_000)
  }

  @Test func theViewportWinsOverStartAndCount() throws {
    let s = try server()
    let r = s.result("visibleRows", ["uri": uri, "start": 0, "count": 1, "viewport": ["top": 1.5, "height": 2]])
    #expect(r["rows"]?.arrayValue?.compactMap { $0["id"] } == ["a1", "r2", "b"])
    let none = s.result("visibleRows", ["uri": uri, "viewport": ["top": 50, "height": 2]])
    #expect(none["rows"] == [])
  }

  @Test func rowsCarryExactlyTheirFields() throws {
    let s = try InProcessServer.started()
    let text = """
      groups:
        - id: top
          title: Top
          badge: "★"
          expanded: true
          groups:
            - id: sub
              title: Sub
              rows: [{id: hidden, title: Hidden, active: false}]
          rows:
            - id: full
              title: Full
              detail: Some detail
              icon: avatar-1
              emphasis: true
              data: {qq: 10001, list: [1, "two", null], flag: true}
            - id: bare
              title: Bare
              active: false
        - id: last
          title: Last

      """
    s.open("untitled:fields", text)
    let rows = s.rows("untitled:fields")
    expectJSON(
      .array(rows),
      json(
        """
        [
          {"index": 0, "id": "top", "kind": "group", "depth": 0, "parent": null, "title": "Top", "badge": "★",
           "top": 0, "height": 1, "isLastChild": false, "expanded": true, "childCount": 3, "rowCount": 3,
           "activeCount": 1},
          {"index": 1, "id": "sub", "kind": "group", "depth": 1, "parent": "top", "title": "Sub",
           "top": 1, "height": 1, "isLastChild": false, "expanded": false, "childCount": 1, "rowCount": 1,
           "activeCount": 0},
          {"index": 2, "id": "full", "kind": "row", "depth": 1, "parent": "top", "title": "Full",
           "detail": "Some detail", "icon": "avatar-1", "active": true, "emphasis": true,
           "data": {"qq": 10001, "list": [1, "two", null], "flag": true}, "top": 2, "height": 2, "isLastChild": false},
          {"index": 3, "id": "bare", "kind": "row", "depth": 1, "parent": "top", "title": "Bare",
           "active": false, "emphasis": false, "top": 4, "height": 1, "isLastChild": true},
          {"index": 4, "id": "last", "kind": "group", "depth": 0, "parent": null, "title": "Last",
           "top": 5, "height": 1, "isLastChild": true, "expanded": false, "childCount": 0, "rowCount": 0,
           "activeCount": 0}
        ]
        """))
  }

  @Test func rowAtOffsetFollowsTheCoverRules() throws {
    let s = try server()
    expectJSON(s.result("rowAtOffset", ["uri": uri, "y": 1.5]), ["index": 1, "id": "a1", "top": 1, "height": 1])
    #expect(s.result("rowAtOffset", ["uri": uri, "y": 2])["id"] == "r2", "a row covers [top, top+height)")
    #expect(s.result("rowAtOffset", ["uri": uri, "y": -10])["id"] == "a")
    #expect(s.result("rowAtOffset", ["uri": uri, "y": 5])["id"] == "c")
    #expect(s.result("rowAtOffset", ["uri": uri, "y": 1e6])["id"] == "c")
    #expect(s.error("rowAtOffset", ["uri": uri])["message"] == "\"y\" is missing")
  }

  @Test func rowAtOffsetOnAnEmptyListIsNull() throws {
    let s = try InProcessServer.started()
    s.open("untitled:empty", "groups: []\n")
    #expect(s.result("rowAtOffset", ["uri": "untitled:empty", "y": 0]) == .null)
    #expect(s.result("visibleRows", ["uri": "untitled:empty"])["rows"] == [])
  }

  @Test func rowsOfHeight0AreNeverHit() throws {
    let s = try server()
    _ = s.result("setLayout", ["uri": uri, "width": 80, "rowHeight": 0])
    // a 0..1, a1 1..2, r2 (height 0) at 2, b 2..3, c 3..4.
    #expect(s.result("rowAtOffset", ["uri": uri, "y": 2])["id"] == "b")
    #expect(s.result("rowAtOffset", ["uri": uri, "y": 1.99])["id"] == "a1")
    let viewport = s.result("visibleRows", ["uri": uri, "viewport": ["top": 1, "height": 2]])
    #expect(viewport["rows"]?.arrayValue?.compactMap { $0["id"] } == ["a1", "b"])
  }

  @Test func rowsServedAgainShowWhatChangedInTheText() throws {
    // The rows' item fields are kept as JSON between answers: a new text must
    // never be answered with the old one's.
    let s = try InProcessServer.started()
    let text = "groups:\n  - {id: g, title: G, expanded: true, rows: [{id: a, title: Alpha, detail: one}]}\n"
    s.open("mem:r", text)
    let before = s.rows("mem:r")
    #expect(before.last?["title"] == "Alpha" && before.last?["detail"] == "one")
    _ = s.result(
      "changeOutline",
      ["uri": "mem:r", "text": .string(text.replacingOccurrences(of: "Alpha, detail: one", with: "Beta, icon: x"))])
    let after = s.rows("mem:r")
    #expect(after.last?["title"] == "Beta" && after.last?["detail"] == nil && after.last?["icon"] == "x")
    #expect(after.first?["rowCount"] == 1)
    // Reopened under another policy: another outline, the same positions.
    s.open("mem:r", text.replacingOccurrences(of: "title: G,", with: "title: H,"), ["policy": "single"])
    #expect(s.rows("mem:r").first?["title"] == "H")
  }
}
