import Foundation
import JSONRPC
import OutlineTestSupport
import Testing

/// PROTOCOL §9 `revealItem`: the closed ancestors of an item opened, and a viewport that shows it.
@Suite struct RevealItemTests {
  /// a (open: a1, a2), b (closed) > c (closed) > c1, then b1; d. Every item is 1 cell tall.
  static let text = """
    groups:
      - id: a
        title: A
        expanded: true
        rows: [{id: a1, title: A1}, {id: a2, title: A2}]
      - id: b
        title: B
        groups:
          - id: c
            title: C
            rows: [{id: c1, title: C1}]
        rows: [{id: b1, title: B1}]
      - id: d
        title: D

    """

  func reveal(_ s: InProcessServer, _ id: String, _ extra: [String: JSONValue] = [:]) -> JSONValue {
    var params: [String: JSONValue] = ["uri": "mem:v", "id": .string(id)]
    params.merge(extra) { _, new in new }
    return s.result("revealItem", .object(params))
  }

  @Test func opensTheClosedAncestorsButNotTheItem() throws {
    let s = try InProcessServer.started()
    s.open("mem:v", Self.text)
    let before = s.visibleIDs("mem:v")
    let r = reveal(s, "c")
    #expect(r["id"] == "c")
    #expect(r["expanded"] == nil)
    #expect(r["index"] == 4)
    #expect(r["version"] == 2)
    #expect(r["updatedGroups"] == ["b"])
    #expect(r["changes"] == [["kind": "insert", "start": 4, "count": 2]])
    #expect(r["total"] == 7)
    #expect(r["contentHeight"] == 7)
    #expect(r["scrollTop"] == nil)
    let after = s.visibleIDs("mem:v")
    #expect(after == ["a", "a1", "a2", "b", "c", "b1", "d"])
    expectReplay(r["changes"], from: before, to: after)
    // The item itself stays closed; revealing a row inside it opens it.
    let row = reveal(s, "c1")
    #expect(row["index"] == 5 && row["updatedGroups"] == ["c"] && row["version"] == 3)
    // A shown item: nothing changes.
    let shown = reveal(s, "a2")
    #expect(shown["index"] == 2 && shown["changes"] == [] && shown["updatedGroups"] == [] && shown["version"] == 3)
  }

  @Test func underSingleEachAncestorOpenedClosesItsOpenSiblings() throws {
    let s = try InProcessServer.started()
    s.open("mem:v", Self.text, ["policy": "single"])
    let before = s.visibleIDs("mem:v")
    let r = reveal(s, "c1")
    #expect(Set(r["updatedGroups"]?.arrayValue?.compactMap(\.stringValue) ?? []) == ["a", "b", "c"])
    #expect(
      r["changes"] == [["kind": "delete", "start": 1, "count": 2], ["kind": "insert", "start": 2, "count": 3]])
    let after = s.visibleIDs("mem:v")
    #expect(after == ["a", "b", "c", "c1", "b1", "d"])
    expectReplay(r["changes"], from: before, to: after)
    #expect(r["index"] == 3)
    // As a toggle would have: a is closed, and opening it again closes b.
    #expect(s.result("toggleSection", ["uri": "mem:v", "section": "a"])["updatedGroups"]?.arrayValue?.count == 2)
  }

  @Test func whileFilteredAnItemTheFilterHidesIsNotRevealed() throws {
    let s = try InProcessServer.started()
    s.open("mem:v", Self.text)
    _ = s.result("filterOutline", ["uri": "mem:v", "query": "A2"])
    let version = s.version("mem:v")
    let before = s.visibleIDs("mem:v")
    let r = reveal(s, "c1", ["scrollTop": 1, "viewportHeight": 5])
    #expect(r["index"] == .null)
    #expect(r["changes"] == [] && r["updatedGroups"] == [])
    #expect(r["version"] == version.map { .int($0) })
    #expect(r["scrollTop"] == 1)
    #expect(s.visibleIDs("mem:v") == before)
    // One the filter shows is revealed in the filtered list.
    #expect(reveal(s, "a2")["index"] == 1)
    // Cleared, the user's expansion is as it was: nothing was opened for c1.
    _ = s.result("filterOutline", ["uri": "mem:v", "query": ""])
    #expect(s.visibleIDs("mem:v") == ["a", "a1", "a2", "b", "d"])
  }

  /// After revealing c1: a 0, a1 1, a2 2, b 3, c 4, c1 5, b1 6, d 7.
  @Test func theViewportMovesAsLittleAsItCan() throws {
    let s = try InProcessServer.started()
    s.open("mem:v", Self.text)
    // Opening the ancestors, then the smallest move that shows c1 [5, 6) in 3 cells.
    #expect(reveal(s, "c1", ["scrollTop": 0, "viewportHeight": 3])["scrollTop"] == 3)
    #expect(s.result("getViewState", ["uri": "mem:v"])["scrollTop"] == 3)
    // Already in view: unchanged.
    #expect(reveal(s, "a2", ["scrollTop": 1, "viewportHeight": 3])["scrollTop"] == 1)
    // Above the viewport: its top at the top.
    #expect(reveal(s, "a1", ["scrollTop": 2.5, "viewportHeight": 3])["scrollTop"] == 1)
    // Below: its bottom at the bottom.
    #expect(reveal(s, "d", ["scrollTop": 0, "viewportHeight": 5])["scrollTop"] == 3)
    // Taller than the viewport: its top, from above and from below.
    #expect(reveal(s, "b", ["scrollTop": 0, "viewportHeight": 0.5])["scrollTop"] == 3)
    #expect(reveal(s, "b", ["scrollTop": 3.25, "viewportHeight": 0.5])["scrollTop"] == 3)
    #expect(reveal(s, "b", ["scrollTop": 3, "viewportHeight": 0.5])["scrollTop"] == 3)
  }

  @Test func badParams() throws {
    let s = try InProcessServer.started()
    s.open("mem:v", Self.text)
    let unknown = s.error("revealItem", ["uri": "mem:v", "id": "nobody"])
    #expect(unknown["code"] == -32012)
    #expect(unknown["message"] == "no item has id \"nobody\"")
    #expect(
      s.error("revealItem", ["uri": "mem:v", "id": "c1", "scrollTop": 0])["message"]
        == "\"viewportHeight\" is missing: revealItem needs it with \"scrollTop\"")
    #expect(
      s.error("revealItem", ["uri": "mem:v", "id": "c1", "viewportHeight": 3])["message"]
        == "\"scrollTop\" is missing: revealItem needs it with \"viewportHeight\"")
    #expect(s.errorCode("revealItem", ["uri": "mem:v"]) == -32602)
    #expect(s.errorCode("revealItem", ["uri": "mem:none", "id": "a"]) == -32010)
    #expect(s.version("mem:v") == 1)
  }

  @Test func initializeListsTheNewMethods() throws {
    let s = try InProcessServer()
    let r = s.initialize()
    #expect(r["serverInfo"]?["version"] == "1.2.0")
    let methods = r["capabilities"]?["methods"]?.arrayValue?.compactMap(\.stringValue) ?? []
    #expect(methods.contains("itemAtPosition") && methods.contains("revealItem"))
  }
}
