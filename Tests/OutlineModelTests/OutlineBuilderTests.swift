import Testing

@testable import OutlineModel

@Suite struct OutlineBuilderTests {
  /// Sends `g` as a loader reading a file where the group's keys come in
  /// another order: rows before subgroups when `rowsFirst`, fields last.
  static func send(_ g: GroupSpec, parent: Int?, rowsFirst: Bool, to b: inout OutlineBuilder) {
    let h = b.beginGroup(parent: parent, source: g.source)
    if rowsFirst {
      for r in g.rows { b.addRow(r, parent: h) }
      for sub in g.groups { send(sub, parent: h, rowsFirst: rowsFirst, to: &b) }
    } else {
      for sub in g.groups { send(sub, parent: h, rowsFirst: rowsFirst, to: &b) }
      for r in g.rows { b.addRow(r, parent: h) }
    }
    b.endGroup(
      h,
      fields: GroupSpec(
        id: g.id, title: g.title, expanded: g.expanded, badge: g.badge, order: g.order, source: g.source))
  }

  static func build(_ doc: OutlineDocument, rowsFirst: Bool) -> Outline {
    var b = OutlineBuilder()
    if let t = doc.title { b.setTitle(t) }
    if let e = doc.expansion { b.setExpansion(e) }
    b.setLayout(doc.layout)
    for g in doc.groups { send(g, parent: nil, rowsFirst: rowsFirst, to: &b) }
    return b.finish()
  }

  /// Every public view of two outlines is the same.
  static func expectSame(_ a: Outline, _ b: Outline, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(a.items == b.items, sourceLocation: sourceLocation)
    #expect(Array(a.items) == Array(b.items), sourceLocation: sourceLocation)
    #expect(a.roots == b.roots, sourceLocation: sourceLocation)
    #expect(a.groupPositions == b.groupPositions, sourceLocation: sourceLocation)
    #expect(a.parentPositions == b.parentPositions, sourceLocation: sourceLocation)
    #expect(a.lastChildFlags == b.lastChildFlags, sourceLocation: sourceLocation)
    #expect(a.title == b.title && a.expansion == b.expansion && a.layout == b.layout, sourceLocation: sourceLocation)
    for p in 0..<b.count {
      #expect(a.position(of: b.id(at: p)) == p, sourceLocation: sourceLocation)
    }
  }

  @Test func groupFieldsMayFollowTheirChildren() {
    var b = OutlineBuilder()
    let g = b.beginGroup(parent: nil, source: .zero)
    b.addRow(Fixtures.row("Alice"), parent: g)
    let sub = b.beginGroup(parent: g, source: .zero)
    b.addRow(Fixtures.row("Dan", active: false), parent: sub)
    b.endGroup(sub, fields: GroupSpec(title: "Cousins", expanded: true, badge: "new"))
    b.endGroup(g, fields: GroupSpec(id: "fam", title: "Family", expanded: false))
    let o = b.finish()
    #expect(o.items.map(\.id) == ["fam", "Family/Cousins", "Family/Cousins/Dan", "Family/Alice"])
    #expect(o.items.map(\.kind) == [.group, .group, .row, .row])
    #expect(o.items.map(\.depth) == [0, 1, 2, 1])
    #expect(o.items.map(\.parent) == [nil, 0, 1, 0])
    #expect(o.items.map(\.end) == [4, 3, 3, 4])
    #expect(o.items.map(\.isLastChild) == [true, false, true, true])
    #expect(o.items.map(\.expandedInFile) == [false, true, nil, nil])
    #expect(o.badge(at: 1) == "new" && o.badge(at: 0) == nil)
    #expect((o.childCount(at: 0), o.rowCount(at: 0), o.activeCount(at: 0)) == (2, 2, 1))
    #expect((o.childCount(at: 1), o.rowCount(at: 1), o.activeCount(at: 1)) == (1, 1, 0))
    #expect(o.roots == [0])
    #expect(o.groupPositions == [0, 1])
  }

  @Test func rowsBeforeGroupsGiveTheDocumentOrder() {
    let doc = Fixtures.contacts
    Self.expectSame(Self.build(doc, rowsFirst: true), Outline(document: doc))
    let generated = Fixtures.generated(groups: 60, rowsPerGroup: 7, nestEvery: 2)
    Self.expectSame(Self.build(generated, rowsFirst: true), Outline(document: generated))
  }

  @Test func builderMatchesOutlineOfDocumentOnTheFixtures() {
    for doc in [Fixtures.contacts, Fixtures.generated(groups: 50, rowsPerGroup: 5)] {
      Self.expectSame(Self.build(doc, rowsFirst: false), Outline(document: doc))
    }
  }

  @Test func rowOrdersAreInheritedAndStable() {
    let rows = [
      Fixtures.row("b", active: false), Fixtures.row("a10"), Fixtures.row("a2", active: false), Fixtures.row("c"),
      Fixtures.row("a2", id: "second a2"),
    ]
    let doc = OutlineDocument(groups: [
      Fixtures.group(
        "T", order: .title,
        groups: [Fixtures.group("Inner", rows: rows), Fixtures.group("File", order: .file, rows: rows)], rows: rows),
      Fixtures.group("A", order: .activeFirst, rows: rows),
    ])
    for rowsFirst in [false, true] {
      let o = Self.build(doc, rowsFirst: rowsFirst)
      func titles(_ group: String) -> [String] {
        let g = o.position(of: group)!
        return ((g + 1)..<o.end(at: g)).filter { o.parent(at: $0) == g && !o.isGroup(at: $0) }.map {
          o.title(at: $0)
        }
      }
      #expect(titles("T") == ["a2", "a2", "a10", "b", "c"])
      #expect(titles("T/Inner") == ["a2", "a2", "a10", "b", "c"])
      #expect(titles("T/File") == ["b", "a10", "a2", "c", "a2"])
      #expect(titles("A") == ["a10", "c", "a2", "b", "a2"])
      // Ties keep file order: the row with the explicit id comes second (and
      // keeps its id in the first group that has it, T/Inner).
      #expect(o.position(of: "second a2") == o.position(of: "T/Inner")! + 2)
      let t = o.position(of: "T")!
      #expect(o.id(at: o.end(at: t) - 4) == "T/a2~2")
      #expect(o.isLastChild(at: o.end(at: t) - 1))
      Self.expectSame(o, Outline(document: doc))
    }
  }

  @Test func aGroupSentTwiceIsTwoGroups() {
    // A YAML alias: the same group reached twice, sent twice.
    let shared = Fixtures.group("Shared", id: "shared", rows: [Fixtures.row("x", id: "x"), Fixtures.row("y")])
    let doc = OutlineDocument(groups: [shared, Fixtures.group("Other", groups: [shared])])
    let o = Self.build(doc, rowsFirst: true)
    #expect(
      o.items.map(\.id) == ["shared", "x", "Shared/y", "Other", "Other/Shared", "Other/Shared/x", "Other/Shared/y"])
    #expect(o.rowCount(at: o.position(of: "Other")!) == 2)
    Self.expectSame(o, Outline(document: doc))
  }

  @Test func derivedIDsAvoidExplicitIDsOfTheWholeFile() {
    // "G/x" is explicit on a later row: the earlier derived one must not take it.
    let doc = OutlineDocument(groups: [
      Fixtures.group("G", rows: [Fixtures.row("x"), Fixtures.row("x"), Fixtures.row("z", id: "G/x~2")]),
      Fixtures.group("H", rows: [Fixtures.row("w", id: "G/x"), Fixtures.row("dup", id: "G/x")]),
      Fixtures.group("G", id: "H/dup"),
    ])
    for rowsFirst in [false, true] {
      let o = Self.build(doc, rowsFirst: rowsFirst)
      #expect(o.items.map(\.id) == ["G", "G/x~3", "G/x~4", "G/x~2", "H", "G/x", "H/dup~2", "H/dup"])
      Self.expectSame(o, Outline(document: doc))
    }
  }

  /// A top-level group titled "" without an id has the empty title path; an
  /// empty id written on a later group reserves it, so the first group steps
  /// on to "~2" and the later one keeps its own id.
  @Test func anEmptyTitlePathStepsAroundAnEmptyIDWrittenLater() {
    let doc = OutlineDocument(groups: [
      Fixtures.group("", rows: [Fixtures.row("r")]),
      Fixtures.group("B", id: ""),
    ])
    for rowsFirst in [false, true] {
      let o = Self.build(doc, rowsFirst: rowsFirst)
      #expect(o.items.map(\.id) == ["~2", "/r", ""])
      Self.expectSame(o, Outline(document: doc))
    }
  }

  @Test func manyItemsSharingATitleNumberOnInOrder() {
    // Each derived id starts its search where the last one with that title
    // path stopped; ids explicit elsewhere are still stepped around.
    let n = 5_000
    let rows = (0..<n).map { _ in Fixtures.row("x") } + [Fixtures.row("e", id: "G/x~100")]
    let o = Outline(document: OutlineDocument(groups: [Fixtures.group("G", rows: rows), Fixtures.group("G")]))
    let expected =
      ["G", "G/x"] + (2..<100).map { "G/x~\($0)" } + (101...n + 1).map { "G/x~\($0)" } + ["G/x~100", "G~2"]
    #expect(o.items.map(\.id) == expected)
    #expect(Set(expected).count == expected.count)
  }

  @Test func everyIDOfAHundredThousandItemsIsFound() {
    let doc = Fixtures.generated(groups: 9_000, rowsPerGroup: 10, nestEvery: 3)
    let o = Outline(document: doc)
    #expect(o.count > 100_000)
    for p in 0..<o.count {
      #expect(o.position(of: o.id(at: p)) == p)
    }
    #expect(o.position(of: "no such id") == nil)
    #expect(o.position(of: "") == nil)
    #expect(o.position(of: "g1r") == nil)
  }

  @Test func nonASCIITextsRoundTrip() {
    let doc = OutlineDocument(groups: [
      GroupSpec(
        title: "Amigos 👋", badge: "新しい",
        rows: [
          RowSpec(title: "Zoë", detail: "Café — naïve résumé", icon: "🧑‍🚀"),
          RowSpec(title: "東京", detail: ""),
          RowSpec(id: "ünïcödé", title: "e\u{301}"),
        ])
    ])
    let o = Self.build(doc, rowsFirst: true)
    #expect(o.items.map(\.id) == ["Amigos 👋", "Amigos 👋/Zoë", "Amigos 👋/東京", "ünïcödé"])
    #expect(o.badge(at: 0) == "新しい")
    #expect(o.detail(at: 1) == "Café — naïve résumé" && o.icon(at: 1) == "🧑‍🚀")
    #expect(o.detail(at: 2) == "" && o.icon(at: 2) == nil)
    #expect(o.detail(at: 3) == nil && o.title(at: 3) == "é")
    #expect(o.position(of: "Amigos 👋/東京") == 2)
    // Canonically equivalent but other bytes: ids compare as bytes, like the file's text.
    #expect(o.position(of: "\u{FC}n\u{EF}c\u{F6}d\u{E9}") == 3)
    Self.expectSame(o, Outline(document: doc))
  }

  @Test func sourcesAndDataAreKept() {
    let long = SourceRange(start: SourcePosition(line: 3, column: 4), end: SourcePosition(line: 9, column: 1))
    let short = SourceRange(start: SourcePosition(line: 12, column: 6), end: SourcePosition(line: 12, column: 10))
    // Columns past 16 bits do not pack: kept whole on the side.
    let wide = SourceRange(start: SourcePosition(line: 14, column: 70_000), end: SourcePosition(line: 15, column: 2))
    let doc = OutlineDocument(groups: [
      GroupSpec(
        title: "G",
        rows: [
          RowSpec(title: "r", data: .object([("k", .array([.int(1), .string("s")]))]), source: short),
          RowSpec(title: "s", emphasis: true, source: long),
          RowSpec(title: "t", source: wide),
        ], source: long)
    ])
    let o = Self.build(doc, rowsFirst: true)
    #expect(o.source(at: 0) == long && o.source(at: 1) == short && o.source(at: 2) == long)
    #expect(o.source(at: 3) == wide)
    #expect(o.data(at: 1) == .object([("k", .array([.int(1), .string("s")]))]))
    #expect(o.data(at: 2) == nil && o.emphasis(at: 2) && !o.emphasis(at: 1))
    Self.expectSame(o, Outline(document: doc))
  }
}
