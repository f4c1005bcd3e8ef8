import Foundation
import JSONRPC
import OutlineTestSupport
import Testing

/// PROTOCOL §4 toggleSection, expandAll, collapseAll, and the change lists.
@Suite struct ExpansionTests {
  let uri: JSONValue = "untitled:small"

  func server(_ extra: [String: JSONValue] = [:]) throws -> InProcessServer {
    let s = try InProcessServer.started()
    s.open("untitled:small", smallOutline, extra)
    return s
  }

  @Test func toggleByIdAnswersTheWholeResult() throws {
    let s = try server()
    let r = s.result("toggleSection", ["uri": uri, "section": "a1"])
    expectJSON(
      r,
      [
        "version": 2, "id": "a1", "expanded": true, "changes": [["kind": "insert", "start": 2, "count": 1]],
        "updatedGroups": ["a1"], "total": 6, "contentHeight": 6,
      ])
  }

  @Test func toggleByIndexAnswersTheTargetedId() throws {
    let s = try server()
    let r = s.result("toggleSection", ["uri": uri, "section": 0])
    #expect(r["id"] == "a")
    #expect(r["expanded"] == false)
    expectJSON(r["changes"], [["kind": "delete", "start": 1, "count": 2]])
    #expect(s.visibleIDs("untitled:small") == ["a", "b", "c"])
  }

  @Test func theExpandedParamSetsInsteadOfFlipping() throws {
    let s = try server()
    let r = s.result("toggleSection", ["uri": uri, "section": "a", "expanded": true])
    #expect(r["expanded"] == true)
    #expect(r["changes"] == [])
    #expect(r["updatedGroups"] == [])
    #expect(r["version"] == 1, "nothing observable changed")
    #expect(s.result("toggleSection", ["uri": uri, "section": "b", "expanded": true])["expanded"] == true)
    #expect(s.result("toggleSection", ["uri": uri, "section": "b", "expanded": true])["version"] == 2)
  }

  @Test(arguments: ["r2" as JSONValue, "zz", 2, 5, 99, -1])
  func aRowAnUnknownIdOrABadIndexIsUnknownSection(_ section: JSONValue) throws {
    let s = try server()
    #expect(s.errorCode("toggleSection", ["uri": uri, "section": section]) == -32012)
  }

  @Test func aMissingOrMistypedSectionIsInvalidParams() throws {
    let s = try server()
    #expect(s.error("toggleSection", ["uri": uri])["message"] == "\"section\" is missing")
    #expect(s.errorCode("toggleSection", ["uri": uri, "section": true]) == -32602)
    #expect(s.errorCode("toggleSection", ["uri": uri, "section": 1.5]) == -32602)
  }

  @Test func aHiddenGroupToggledByIdKeepsScrollTopAndTheVersion() throws {
    let s = try server()
    _ = s.result("toggleSection", ["uri": uri, "section": "a", "expanded": false])
    let r = s.result("toggleSection", ["uri": uri, "section": "a1", "scrollTop": 7])
    #expect(r["scrollTop"] == 7)
    #expect(r["expanded"] == true)
    #expect(r["changes"] == [])
    #expect(r["updatedGroups"] == ["a1"])
    #expect(r["version"] == 2, "a toggle under a closed parent changes nothing visible")
    _ = s.result("toggleSection", ["uri": uri, "section": "a"])
    #expect(s.visibleIDs("untitled:small") == ["a", "a1", "r1", "r2", "b", "c"])
  }

  @Test func anchoringKeepsTheHeaderWhenAGroupAboveClosesUnderSingle() throws {
    let s = try server(["policy": "single"])
    // a (open) at 0 with a1, r2; b at 3. Opening b closes a: b moves up to 1.
    let r = s.result("toggleSection", ["uri": uri, "section": "b", "scrollTop": 10])
    #expect(r["scrollTop"] == 8)
    #expect(Set(r["updatedGroups"]?.arrayValue ?? []) == ["a", "b"])
    expectJSON(
      r["changes"], [["kind": "delete", "start": 1, "count": 2], ["kind": "insert", "start": 2, "count": 1]])
    #expect(s.visibleIDs("untitled:small") == ["a", "b", "r3", "c"])
  }

  @Test func theAnchoredScrollTopIsClampedAt0() throws {
    let s = try server(["policy": "single"])
    let r = s.result("toggleSection", ["uri": uri, "section": "b", "scrollTop": 1])
    #expect(r["scrollTop"] == 0)
  }

  @Test func viewportHeightClampsTheScrollTopFromAbove() throws {
    let s = try server(["policy": "single"])
    let r = s.result("toggleSection", ["uri": uri, "section": "b", "scrollTop": 10, "viewportHeight": 2])
    // contentHeight after is 4, so at most 4 − 2.
    #expect(r["scrollTop"] == 2)
    let t = try server()
    let big = t.result("toggleSection", ["uri": uri, "section": "c", "scrollTop": 3, "viewportHeight": 100])
    #expect(big["scrollTop"] == 0, "max(0, contentHeight − viewportHeight)")
  }

  @Test func withoutScrollTopTheResultHasNone() throws {
    let s = try server()
    #expect(s.result("toggleSection", ["uri": uri, "section": "b"])["scrollTop"] == nil)
  }

  @Test func expandAllAndCollapseAllAnswerTheirShape() throws {
    let s = try server()
    let e = s.result("expandAll", ["uri": uri])
    #expect(e["expanded"] == true)
    #expect(Set(e["updatedGroups"]?.arrayValue ?? []) == ["a1", "b", "c"])
    #expect(e["total"] == 7)
    expectReplay(e["changes"], from: ["a", "a1", "r2", "b", "c"], to: s.visibleIDs("untitled:small"))
    let c = s.result("collapseAll", ["uri": uri])
    #expect(c["expanded"] == false)
    #expect(Set(c["updatedGroups"]?.arrayValue ?? []) == ["a", "a1", "b", "c"])
    expectJSON(
      c["changes"], [["kind": "delete", "start": 1, "count": 3], ["kind": "delete", "start": 2, "count": 1]])
    #expect(c["total"] == 3)
  }

  /// PROTOCOL gives expandAll/collapseAll toggleSection's shape but targets no group; the
  /// project answers `id: null`.
  @Test func ambiguousExpandAllAndCollapseAllAnswerIdNull() throws {
    let s = try server()
    #expect(s.result("expandAll", ["uri": uri])["id"] == .null)
    #expect(s.result("collapseAll", ["uri": uri])["id"] == .null)
  }

  @Test func expandAllWithADepthOpensOnlyShallowerGroups() throws {
    let s = try server()
    let r = s.result("expandAll", ["uri": uri, "depth": 1])
    #expect(Set(r["updatedGroups"]?.arrayValue ?? []) == ["b", "c"])
    #expect(s.visibleIDs("untitled:small") == ["a", "a1", "r2", "b", "r3", "c"])
    #expect(s.errorCode("expandAll", ["uri": uri, "depth": -1]) == -32602)
  }

  @Test func expandAllUnderSingleIsInvalidParams() throws {
    let s = try server(["policy": "single"])
    #expect(s.errorCode("expandAll", ["uri": uri]) == -32602)
    #expect(s.result("collapseAll", ["uri": uri])["expanded"] == false)
  }

  @Test func updatedGroupsIncludesHiddenGroups() throws {
    let s = try server()
    _ = s.result("toggleSection", ["uri": uri, "section": "a1"])
    _ = s.result("toggleSection", ["uri": uri, "section": "a"])
    let r = s.result("collapseAll", ["uri": uri])
    #expect(r["updatedGroups"] == ["a1"], "a1 was open under the closed a")
    #expect(r["changes"] == [])
    let e = s.result("expandAll", ["uri": uri])
    #expect(Set(e["updatedGroups"]?.arrayValue ?? []) == ["a", "a1", "b", "c"])
  }

  @Test func changeListsReplayToTheNewVisibleListOverRandomToggles() throws {
    for policy in ["multiple", "single"] {
      let s = try InProcessServer.started()
      let uri: JSONValue = "untitled:contacts"
      s.open("untitled:contacts", contactsText(), ["policy": .string(policy)])
      // Every group id, from a fully expanded copy.
      s.open("untitled:all", contactsText(), ["policy": "multiple"])
      _ = s.result("expandAll", ["uri": "untitled:all"])
      let groups = s.rows("untitled:all").filter { $0["kind"] == "group" }.compactMap { $0["id"] }
      #expect(groups.count > 5)
      var rng = SeededGenerator(state: policy == "single" ? 7 : 42)
      var shown = s.rows("untitled:contacts")
      for step in 0..<80 {
        let r: JSONValue
        switch Int.random(in: 0..<20, using: &rng) {
        case 0 where policy == "multiple": r = s.result("expandAll", ["uri": uri])
        case 1: r = s.result("collapseAll", ["uri": uri])
        case 2, 3, 4:
          // By visible index, as a host holding the list does.
          let index = shown.filter { $0["kind"] == "group" }.randomElement(using: &rng)!["index"]!
          r = s.result("toggleSection", ["uri": uri, "section": index])
          #expect(r["id"] == shown[Int(index.intValue!)]["id"])
        default:
          r = s.result("toggleSection", ["uri": uri, "section": groups.randomElement(using: &rng)!])
        }
        let new = s.rows("untitled:contacts")
        expectReplay(
          r["changes"], from: shown.compactMap { $0["id"]?.stringValue }, to: new.compactMap { $0["id"]?.stringValue })
        #expect(r["total"]?.intValue == Int64(new.count), "step \(step)")
        shown = new
      }
    }
  }
}

extension ExpansionTests {
  /// An empty group shows no rows when opened, but its `expanded` (the arrow) is part of
  /// the visible list, so the version moves; under a closed parent nothing visible changes.
  @Test func openingAVisibleEmptyGroupMovesTheVersion() throws {
    let s = try server()
    let r = s.result("toggleSection", ["uri": uri, "section": "c"])
    #expect(r["changes"] == [])
    #expect(r["version"] == 2)
    #expect(s.rows("untitled:small").last?["expanded"] == true)
    let t = try server()
    _ = t.result("toggleSection", ["uri": uri, "section": "a1"])
    _ = t.result("toggleSection", ["uri": uri, "section": "b"])
    let all = t.result("expandAll", ["uri": uri])
    #expect(all["updatedGroups"] == ["c"])
    #expect(all["changes"] == [])
    #expect(all["version"] == 4)
    let u = try server()
    _ = u.result("collapseAll", ["uri": uri])
    _ = u.result("toggleSection", ["uri": uri, "section": "c"])
    let none = u.result("collapseAll", ["uri": uri])
    #expect(none["changes"] == [])
    #expect(none["version"] == 4)
  }
}
