import Testing

@testable import OutlineModel

@Suite struct NavigationTests {
  func state(policy: ExpansionPolicy? = nil) -> OutlineState {
    var layout = LayoutOverrides()
    layout.rowHeight = .fixed(2)
    var s = OutlineState(outline: Outline(document: Fixtures.contacts), policy: policy, layout: layout)
    _ = try? s.toggle(s.outline.position(of: "friends")!)
    return s
  }

  func id(_ s: OutlineState, _ r: NavigationResult) -> String { s.item(r.focus).id }

  @Test func upAndDownStopAtTheEnds() throws {
    var s = state()
    let first = s.outline.position(of: "friends")!
    #expect(id(s, try s.navigate(from: first, key: .up)) == "friends")
    #expect(id(s, try s.navigate(from: first, key: .down)) == "alice")
    let last = s.outline.position(of: "work")!
    #expect(id(s, try s.navigate(from: last, key: .down)) == "work")
    #expect(id(s, try s.navigate(from: last, key: .home)) == "friends")
    #expect(id(s, try s.navigate(from: first, key: .end)) == "work")
    #expect(s.focus == s.outline.position(of: "work"))
  }

  @Test func rightExpandsThenEntersLeftCollapsesThenLeaves() throws {
    var s = state()
    let family = s.outline.position(of: "family")!
    let r1 = try s.navigate(from: family, key: .right)
    #expect(id(s, r1) == "family")
    #expect(r1.expansion?.changes == [OutlineChange(.insert, start: 5, count: 2)])
    let r2 = try s.navigate(from: family, key: .right)
    #expect(id(s, r2) == "cousins")
    #expect(r2.expansion == nil)
    let mum = s.outline.position(of: "mum")!
    #expect(id(s, try s.navigate(from: mum, key: .left)) == "family")
    #expect(try s.navigate(from: family, key: .left).expansion != nil)
    #expect(id(s, try s.navigate(from: family, key: .left)) == "family")
    let alice = s.outline.position(of: "alice")!
    #expect(try s.navigate(from: alice, key: .right).expansion == nil)
  }

  @Test func aHiddenItemActsFromItsVisibleAncestor() throws {
    var s = state()
    let dan = s.outline.position(of: "Family/Cousins/Dan")!
    #expect(id(s, try s.navigate(from: dan, key: .down)) == "work")
  }

  @Test func pageKeysMoveByThePageHeight() throws {
    var s = state()
    // friends [0,1) alice [1,3) bob [3,5) carol [5,7) family [7,8) work [8,9)
    let first = s.outline.position(of: "friends")!
    #expect(id(s, try s.navigate(from: first, key: .pageDown, pageHeight: 4)) == "bob")
    #expect(id(s, try s.navigate(from: first, key: .pageDown, pageHeight: 0.5)) == "alice")
    let work = s.outline.position(of: "work")!
    #expect(id(s, try s.navigate(from: work, key: .pageUp, pageHeight: 4)) == "bob")
    #expect(id(s, try s.navigate(from: work, key: .pageDown)) == "work")
    // A page shorter than an item still moves one item, and only one.
    #expect(id(s, try s.navigate(from: work, key: .pageUp, pageHeight: 0.5)) == "family")
  }

  /// Headers of height 0 above the first row: a page up from that row lands on
  /// the row itself (items of height 0 are never hit), so it moves one item up.
  @Test func pageUpOverItemsOfHeightZeroMovesOneItem() throws {
    var layout = LayoutOverrides()
    layout.headerHeight = .fixed(0)
    layout.rowHeight = .fixed(1)
    var s = OutlineState(outline: Outline(document: Fixtures.contacts), layout: layout)
    _ = try s.toggle(s.outline.position(of: "family")!)
    // friends, family, cousins (height 0), mum [0, 1), work (height 0)
    let mum = s.outline.position(of: "mum")!
    #expect(id(s, try s.navigate(from: mum, key: .pageUp, pageHeight: 1)) == "cousins")
    #expect(id(s, try s.navigate(from: mum, key: .pageDown, pageHeight: 0.5)) == "work")
  }

  @Test func typeAheadWrapsAndMatchesCaseFolded() throws {
    var s = state()
    let alice = s.outline.position(of: "alice")!
    #expect(id(s, try s.navigate(from: alice, key: .typeAhead("a"))) == "alice")
    #expect(id(s, try s.navigate(from: alice, key: .typeAhead("F"))) == "family")
    #expect(id(s, try s.navigate(from: s.outline.position(of: "work")!, key: .typeAhead("f"))) == "friends")
    #expect(id(s, try s.navigate(from: alice, key: .typeAhead("al"))) == "alice")
    #expect(id(s, try s.navigate(from: alice, key: .typeAhead("c"))) == "carol")
    #expect(id(s, try s.navigate(from: alice, key: .typeAhead("zz"))) == "alice")
  }

  @Test func expandSiblingsOpensEveryGroupAtThatLevel() throws {
    var s = state()
    let version = s.version
    let r = try s.navigate(from: s.outline.position(of: "friends")!, key: .expandSiblings)
    #expect(Set(r.expansion?.updatedGroups ?? []) == ["family", "work"])
    #expect(s.version == version + 1)
    var single = state(policy: .single)
    #expect(throws: OutlineError.expandAllUnderSinglePolicy) {
      try single.navigate(from: 0, key: .expandSiblings)
    }
  }

  @Test func viewStateIsTheWholeSet() throws {
    var s = state()
    let old = referenceVisibleList(s)
    let r = s.setViewState(expanded: ["family", "cousins", "nope"], focus: "mum", scrollTop: 3)
    #expect(s.expandedIDs == ["family", "cousins"])
    #expect(replay(r.changes, on: old, new: referenceVisibleList(s)) == referenceVisibleList(s))
    #expect(s.focus == s.outline.position(of: "mum"))
    #expect(s.scrollTop == 3)
    var single = state(policy: .single)
    _ = single.setViewState(expanded: ["work", "friends"], focus: nil, scrollTop: nil)
    #expect(single.expandedIDs == ["friends"])
  }

  @Test func aKeyFromAHiddenItemNamesTheGroupItToggled() throws {
    let doc = OutlineDocument(groups: [
      Fixtures.group("P", id: "p", groups: [Fixtures.group("P2", id: "p2", rows: [Fixtures.row("x")])])
    ])
    var s = OutlineState(outline: Outline(document: doc))
    let p = s.outline.position(of: "p")!
    let r = try s.navigate(from: s.outline.position(of: "p2")!, key: .right)
    #expect(r.toggled == p)
    #expect(r.expansion?.updatedGroups == ["p"])
    #expect(s.isExpanded(p))
    #expect(id(s, r) == "p")
  }

  @Test func setViewStateThatTurnsOnlyAnArrowAddsOneToTheVersion() {
    // Empty groups: opening or closing one moves no row, but its header changes.
    let doc = OutlineDocument(
      expansion: .single,
      groups: [Fixtures.group("bravo", id: "g1", expanded: true), Fixtures.group("delta", id: "g4")])
    var s = OutlineState(outline: Outline(document: doc))
    #expect(s.version == 1)
    let r1 = s.setViewState(expanded: [], focus: nil, scrollTop: nil)
    #expect(r1.changes.isEmpty && r1.updatedGroups == ["g1"])
    #expect(s.version == 2)
    let r2 = s.setViewState(expanded: ["g4"], focus: "g4", scrollTop: nil)
    #expect(r2.updatedGroups == ["g4"])
    #expect(s.version == 3)
    // The same set again changes nothing.
    _ = s.setViewState(expanded: ["g4"], focus: nil, scrollTop: nil)
    #expect(s.version == 3)
  }

  @Test func setViewStateOfAHiddenGroupKeepsTheVersion() {
    let doc = OutlineDocument(groups: [
      Fixtures.group("A", id: "a", groups: [Fixtures.group("Inner", id: "inner")])
    ])
    var s = OutlineState(outline: Outline(document: doc))
    _ = s.setViewState(expanded: ["inner"], focus: nil, scrollTop: nil)
    #expect(s.version == 1)
  }
}
