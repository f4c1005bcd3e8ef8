import Testing

@testable import OutlineModel

/// PROTOCOL §9 `revealItem`: opening the closed ancestors of an item, and the viewport that shows it.
@Suite struct RevealTests {
  /// top (closed) > mid (open) > deep (closed) > leaf row; top's open sibling `other` with 2 rows;
  /// mid's open sibling `midSibling` with a row; a last group `tail`. Headers 1 tall, rows 2.
  static var nested: OutlineDocument {
    OutlineDocument(groups: [
      Fixtures.group("Other", id: "other", expanded: true, rows: [Fixtures.row("O1"), Fixtures.row("O2")]),
      Fixtures.group(
        "Top", id: "top", expanded: false,
        groups: [
          Fixtures.group(
            "Mid Sibling", id: "midSibling", expanded: true, rows: [Fixtures.row("M1", id: "m1")]),
          Fixtures.group(
            "Mid", id: "mid", expanded: true,
            groups: [
              Fixtures.group("Deep", id: "deep", expanded: false, rows: [Fixtures.row("Leaf", id: "leaf")])
            ]),
        ]),
      Fixtures.group("Tail", id: "tail", rows: [Fixtures.row("T1")]),
    ])
  }

  func state(_ policy: ExpansionPolicy = .multiple, _ doc: OutlineDocument = Self.nested) -> OutlineState {
    var layout = LayoutOverrides()
    layout.headerHeight = .fixed(1)
    layout.rowHeight = .fixed(2)
    return OutlineState(outline: Outline(document: doc), policy: policy, layout: layout)
  }

  func ids(_ s: OutlineState) -> [String] { referenceVisibleList(s).map { s.outline.id(at: $0) } }

  @Test func opensTheClosedAncestorsButNotTheItem() throws {
    var s = state()
    let before = referenceVisibleList(s)
    let deep = s.outline.position(of: "deep")!
    let r = s.reveal(deep)
    #expect(s.isExpanded(s.outline.position(of: "top")!))
    #expect(!s.isExpanded(deep), "the item itself stays closed")
    #expect(Set(r.expansion.updatedGroups) == ["top"])
    #expect(ids(s) == ["other", "Other/O1", "Other/O2", "top", "midSibling", "m1", "mid", "deep", "tail"])
    #expect(r.index == 7)
    // One block opened: one insert.
    #expect(r.expansion.changes == [OutlineChange(.insert, start: 4, count: 4)])
    #expect(replay(r.expansion.changes, on: before, new: referenceVisibleList(s)) == referenceVisibleList(s))
    #expect(s.version == 2)
    let leaf = s.reveal(s.outline.position(of: "leaf")!)
    #expect(leaf.index == 8 && leaf.expansion.updatedGroups == ["deep"])
    #expect(s.version == 3)
  }

  @Test func aShownItemChangesNothing() {
    var s = state()
    let r = s.reveal(s.outline.position(of: "tail")!)
    #expect(r == RevealResult(expansion: ExpansionResult(), index: 4))
    #expect(s.version == 1)
    // A hidden group with an open ancestor chain above a closed one: only that one opens.
    let hidden = s.reveal(s.outline.position(of: "m1")!)
    #expect(hidden.expansion.updatedGroups == ["top"])
  }

  @Test func underSingleEachAncestorOpenedClosesItsOpenSiblings() {
    var s = state(.single)
    // Under single the file's first open sibling wins: other is open, top closed, midSibling open, mid closed.
    #expect(ids(s) == ["other", "Other/O1", "Other/O2", "top", "tail"])
    let before = referenceVisibleList(s)
    let r = s.reveal(s.outline.position(of: "leaf")!)
    #expect(Set(r.expansion.updatedGroups) == ["other", "top", "midSibling", "mid", "deep"])
    #expect(ids(s) == ["other", "top", "midSibling", "mid", "deep", "leaf", "tail"])
    // Other's rows go, then top's new block comes: the shortest list.
    #expect(
      r.expansion.changes == [OutlineChange(.delete, start: 1, count: 2), OutlineChange(.insert, start: 2, count: 4)])
    #expect(replay(r.expansion.changes, on: before, new: referenceVisibleList(s)) == referenceVisibleList(s))
    #expect(r.index == 5)
    // The bookkeeping of single followed: opening midSibling now closes mid.
    let t = try? s.toggle(s.outline.position(of: "midSibling")!)
    #expect(t?.updatedGroups.contains("mid") == true)
  }

  @Test func whileFilteredAnItemTheFilterHidesIsNotRevealed() {
    var s = state()
    _ = s.filter("O1")
    let version = s.version
    let shownBefore = referenceVisibleListFiltered(s)
    // Its closed ancestors (top, deep) stay closed: nothing is opened for an item that stays hidden.
    let r = s.reveal(s.outline.position(of: "leaf")!, scrollTop: 3, viewportHeight: 4)
    #expect(r.index == nil && r.expansion.changes.isEmpty && r.expansion.updatedGroups.isEmpty)
    #expect(r.expansion.scrollTop == 3)
    #expect(s.version == version && referenceVisibleListFiltered(s) == shownBefore)
    _ = s.filter("")
    #expect(!s.isExpanded(s.outline.position(of: "top")!) && !s.isExpanded(s.outline.position(of: "deep")!))
  }

  @Test func whileFilteredAShownItemUnderAGroupClosedSinceIsRevealed() throws {
    var s = state()
    _ = s.filter("leaf")
    let mid = s.outline.position(of: "mid")!
    _ = try s.toggle(mid)
    #expect(!s.isExpanded(mid))
    let r = s.reveal(s.outline.position(of: "leaf")!)
    #expect(r.expansion.updatedGroups == ["mid"])
    // top, mid, deep, leaf.
    #expect(r.index == 3)
    _ = s.filter("")
    // Forgotten with the filter, as toggles made while filtered are.
    #expect(!s.isExpanded(s.outline.position(of: "top")!))
  }

  /// Heights: other [0,1) O1 [1,3) O2 [3,5) top [5,6) tail [6,7).
  @Test func theViewportMovesAsLittleAsItCan() {
    var s = state()
    let o2 = s.outline.position(of: "Other/O2")!
    // Already within: unchanged.
    #expect(s.reveal(o2, scrollTop: 2, viewportHeight: 4).expansion.scrollTop == 2)
    #expect(s.scrollTop == 2)
    // Above the viewport: its top at the viewport's top.
    #expect(s.reveal(o2, scrollTop: 4, viewportHeight: 4).expansion.scrollTop == 3)
    // Below: its bottom at the viewport's bottom.
    #expect(s.reveal(s.outline.position(of: "tail")!, scrollTop: 0, viewportHeight: 4).expansion.scrollTop == 3)
    // Taller than the viewport: its top, from below and from above.
    #expect(s.reveal(o2, scrollTop: 0, viewportHeight: 1).expansion.scrollTop == 3)
    #expect(s.reveal(o2, scrollTop: 3.5, viewportHeight: 1).expansion.scrollTop == 3)
    #expect(s.reveal(o2, scrollTop: 3, viewportHeight: 1).expansion.scrollTop == 3)
    // After opening the ancestors: where the item is then.
    let leaf = s.reveal(s.outline.position(of: "leaf")!, scrollTop: 0, viewportHeight: 5)
    // other 0, O1 1, O2 3, top 5, midSibling 6, m1 7, mid 9, deep 10, leaf [11,13)
    #expect(leaf.expansion.scrollTop == 8)
    // Without a viewport height, no scrollTop.
    #expect(s.reveal(o2, scrollTop: 0).expansion.scrollTop == nil)
  }

  /// Random outlines, expansions and items, under both policies: the
  /// change list replays to the new visible list, and has at most a delete
  /// and an insert.
  @Test func randomRevealsGiveTheShortestChangeList() {
    var rng = SplitMix(seed: 11)
    for round in 0..<60 {
      let policy: ExpansionPolicy = round % 2 == 0 ? .multiple : .single
      var s = state(policy, Self.deep(&rng))
      for _ in 0..<10 {
        let before = referenceVisibleList(s)
        let p = Int(rng.next() % UInt64(s.outline.count))
        let r = s.reveal(p)
        let after = referenceVisibleList(s)
        #expect(replay(r.expansion.changes, on: before, new: after) == after)
        #expect(r.expansion.changes.count <= 2)
        #expect(r.index.map { after[$0] } == p)
        if Bool.random(using: &rng), let g = s.outline.groupPositions.randomElement(using: &rng) {
          _ = try? s.toggle(g)
        }
      }
    }
  }

  /// A random outline three levels deep, some groups open.
  static func deep(_ rng: inout SplitMix) -> OutlineDocument {
    func level(_ depth: Int, _ prefix: String) -> [GroupSpec] {
      (0..<Int(1 + rng.next() % 3)).map { i in
        let id = "\(prefix)\(i)"
        return Fixtures.group(
          id, id: id, expanded: rng.next() % 2 == 0, groups: depth < 3 ? level(depth + 1, id + ".") : [],
          rows: (0..<Int(rng.next() % 3)).map { Fixtures.row("\(id)r\($0)", id: "\(id)r\($0)") })
      }
    }
    return OutlineDocument(groups: level(0, "g"))
  }

  /// The visible list while filtered: what the index holds.
  func referenceVisibleListFiltered(_ s: OutlineState) -> [Int] {
    s.visibleItems(start: 0, count: s.total).map(\.position)
  }
}
