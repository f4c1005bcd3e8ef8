import Testing

@testable import OutlineModel

@Suite struct OutlineTests {
  @Test func itemsAreInDocumentOrderWithSubgroupsBeforeRows() {
    let o = Outline(document: Fixtures.contacts)
    #expect(
      o.items.map(\.id) == [
        "friends", "alice", "bob", "carol", "family", "cousins", "Family/Cousins/Dan", "Family/Cousins/Eve", "mum",
        "work",
      ])
    #expect(o.groupCount == 4)
    #expect(o.rowCount == 6)
  }

  @Test func groupsCountRowsAndActiveRowsOverTheirSubtree() {
    let o = Outline(document: Fixtures.contacts)
    let friends = o.items[o.position(of: "friends")!]
    #expect((friends.childCount, friends.rowCount, friends.activeCount) == (3, 3, 2))
    let family = o.items[o.position(of: "family")!]
    #expect((family.childCount, family.rowCount, family.activeCount) == (2, 3, 3))
    #expect(o.items[o.position(of: "work")!].childCount == 0)
  }

  @Test func depthParentAndLastChild() {
    let o = Outline(document: Fixtures.contacts)
    let eve = o.items[o.position(of: "Family/Cousins/Eve")!]
    #expect(eve.depth == 2)
    #expect(eve.parent == o.position(of: "cousins"))
    #expect(eve.isLastChild)
    #expect(!o.items[o.position(of: "cousins")!].isLastChild)
    #expect(o.items[o.position(of: "mum")!].isLastChild)
    #expect(o.items[o.position(of: "work")!].isLastChild)
    #expect(o.items[o.position(of: "friends")!].parent == nil)
  }

  /// The last child of a group is its last row, or its last subgroup when it has no rows;
  /// checked against that definition on outlines with groups of subgroups only, empty
  /// groups and groups of rows only.
  @Test func theLastChildOfAGroupOfSubgroupsOnlyIsItsLastSubgroup() {
    let doc = OutlineDocument(groups: [
      Fixtures.group(
        "Teams", id: "teams",
        groups: [
          Fixtures.group("Red", id: "red", rows: [Fixtures.row("Ann", id: "ann")]),
          Fixtures.group("Blue", id: "blue", groups: [Fixtures.group("Empty", id: "empty")]),
        ]),
      Fixtures.group("Solo", id: "solo", groups: [Fixtures.group("Inner", id: "inner")]),
    ])
    let o = Outline(document: doc)
    #expect(o.items.map(\.id) == ["teams", "red", "ann", "blue", "empty", "solo", "inner"])
    #expect(o.items.filter(\.isLastChild).map(\.id) == ["ann", "blue", "empty", "solo", "inner"])
    for d in [doc, Fixtures.contacts, Fixtures.generated(groups: 12, rowsPerGroup: 0, nestEvery: 2)] {
      let o = Outline(document: d)
      let items = o.items
      for (p, item) in items.enumerated() {
        let siblings = items.indices.filter { items[$0].parent == item.parent }
        #expect(item.isLastChild == (siblings.last == p), "\(item.id)")
      }
    }
  }

  /// Texts are kept as given: an empty explicit id stays the item's id, and an
  /// empty detail stays empty (not absent).
  @Test func emptyTextsAreKeptAndEveryTextIsCounted() {
    let doc = OutlineDocument(groups: [
      Fixtures.group("Ä", id: "", rows: [Fixtures.row("r", detail: ""), Fixtures.row("s", id: "sid", detail: "dé")]),
      GroupSpec(title: "B", badge: "★"),
    ])
    let o = Outline(document: doc)
    #expect(o.items.map(\.id) == ["", "Ä/r", "sid", "B"])
    #expect(o.detail(at: 1) == "")
    #expect(o.detail(at: 2) == "dé")
    #expect(o.detail(at: 3) == nil)
    // The bytes lent for the rows' answers say the same.
    #expect(o.withDetailUTF8(at: 1) { $0.map { Array($0) } } == [])
    #expect(o.withDetailUTF8(at: 2) { $0.map { Array($0) } } == Array("dé".utf8))
    #expect(o.withDetailUTF8(at: 3) { $0.map { Array($0) } } == nil)
  }

  /// ``Outline/itemTableBytes`` (the figure `outline-bench` reports per item)
  /// counts every item's flags, last-child flag, parent, group number, source
  /// and text spans, every group's position and five counts, every top-level
  /// group's position, and at least one 4-byte id slot per item; no more than
  /// twice that without data or long sources.
  @Test func theItemTableBytesCountEveryItemAndEveryGroup() {
    let perItem = 1 + 1 + 4 + 4 + MemoryLayout<PackedSource>.stride + MemoryLayout<TextSpans>.stride
    let perGroup = 8 + 5 * 4
    for doc in [
      Fixtures.generated(groups: 200, rowsPerGroup: 0, nestEvery: 2), Fixtures.generated(groups: 40, rowsPerGroup: 20),
    ] {
      let o = Outline(document: doc)
      let atLeast = o.count * (perItem + 4) + o.groupCount * perGroup + o.roots.count * 8
      #expect(o.itemTableBytes >= atLeast)
      #expect(o.itemTableBytes <= 2 * atLeast)
    }
  }

  @Test func derivedIDsAvoidCollisions() {
    let doc = OutlineDocument(groups: [
      Fixtures.group("A", rows: [Fixtures.row("x"), Fixtures.row("x"), Fixtures.row("y", id: "A/x~3")]),
      Fixtures.group("A"),
    ])
    let o = Outline(document: doc)
    #expect(o.items.map(\.id) == ["A", "A/x", "A/x~2", "A/x~3", "A~2"])
  }

  @Test func rowOrderActiveFirstAndTitle() {
    let doc = OutlineDocument(groups: [
      Fixtures.group(
        "G", order: .activeFirst,
        groups: [
          Fixtures.group("S", order: .title, rows: [Fixtures.row("b10"), Fixtures.row("B2"), Fixtures.row("a")]),
          Fixtures.group("T", rows: [Fixtures.row("off", active: false), Fixtures.row("on")]),
        ],
        rows: [
          Fixtures.row("1", active: false), Fixtures.row("2"), Fixtures.row("3", active: false), Fixtures.row("4"),
        ])
    ])
    let o = Outline(document: doc)
    #expect(o.items.map(\.title) == ["G", "S", "a", "B2", "b10", "T", "on", "off", "2", "4", "1", "3"])
  }
}
