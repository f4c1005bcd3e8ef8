import Testing

@testable import OutlineModel

/// PROTOCOL §9 `itemAtPosition` in the model: the innermost item whose source range holds a position.
@Suite struct SourceIndexTests {
  static func range(_ a: Int, _ b: Int, _ c: Int, _ d: Int) -> SourceRange {
    SourceRange(start: SourcePosition(line: a, column: b), end: SourcePosition(line: c, column: d))
  }

  /// As a loader gives it for:
  /// ```
  /// 0 groups:
  /// 1   - id: g
  /// 2     title: G
  /// 3     order: title
  /// 4     groups:
  /// 5       - {id: sub, title: Sub}
  /// 6     rows:
  /// 7       - id: zed
  /// 8         title: Zed
  /// 9       - id: amy
  /// 10        title: Amy
  /// 11  - id: h
  /// 12    title: H
  /// ```
  /// `order: title` puts amy before zed: item order is not source order.
  static var document: OutlineDocument {
    OutlineDocument(groups: [
      GroupSpec(
        id: "g", title: "G", order: .title,
        groups: [GroupSpec(id: "sub", title: "Sub", source: range(5, 8, 5, 30))],
        rows: [
          RowSpec(id: "zed", title: "Zed", source: range(7, 8, 9, 6)),
          RowSpec(id: "amy", title: "Amy", source: range(9, 8, 11, 2)),
        ], source: range(1, 4, 11, 2)),
      GroupSpec(id: "h", title: "H", source: range(11, 4, 13, 0)),
    ])
  }

  func at(_ s: inout OutlineState, _ line: Int, _ column: Int) -> String? {
    s.innermostItem(containing: SourcePosition(line: line, column: column)).map { s.outline.id(at: $0) }
  }

  @Test func theInnermostItemHoldingAPosition() {
    var s = OutlineState(outline: Outline(document: Self.document))
    #expect(s.outline.items.map(\.id) == ["g", "sub", "amy", "zed", "h"])
    // Inside a row, from its first key to where the next token starts.
    #expect(at(&s, 8, 10) == "zed")
    #expect(at(&s, 7, 8) == "zed")
    #expect(at(&s, 9, 5) == "zed")
    #expect(at(&s, 9, 8) == "amy")
    #expect(at(&s, 10, 0) == "amy")
    // On a group's own lines, and between its children (the `- ` of a row is its group's).
    #expect(at(&s, 2, 3) == "g")
    #expect(at(&s, 6, 0) == "g")
    #expect(at(&s, 9, 6) == "g")
    #expect(at(&s, 5, 20) == "sub")
    #expect(at(&s, 5, 30) == "g")
    #expect(at(&s, 11, 4) == "h")
    // Before the first item, and past the last.
    #expect(at(&s, 0, 3) == nil)
    #expect(at(&s, 1, 3) == nil)
    #expect(at(&s, 13, 0) == nil)
    #expect(at(&s, 40, 0) == nil)
  }

  @Test func aNewOutlineDropsTheIndex() {
    var s = OutlineState(outline: Outline(document: Self.document))
    #expect(at(&s, 12, 2) == "h")
    var moved = Self.document
    moved.groups[1].source = Self.range(11, 4, 20, 0)
    _ = s.replace(with: Outline(document: moved))
    #expect(at(&s, 15, 0) == "h")
  }

  /// An item brought by an alias, and its children, have the alias's range:
  /// the item the alias names is the one found there.
  @Test func anAliasNamesTheItemItBrings() {
    let alias = Self.range(3, 12, 3, 14)
    let doc = OutlineDocument(groups: [
      GroupSpec(
        id: "holder", title: "Holder",
        groups: [
          GroupSpec(id: "copy", title: "Copy", rows: [RowSpec(id: "r", title: "R", source: alias)], source: alias)
        ], source: Self.range(2, 4, 4, 0))
    ])
    var s = OutlineState(outline: Outline(document: doc))
    #expect(at(&s, 3, 13) == "copy")
    #expect(at(&s, 3, 14) == "holder")
  }

  /// Random nested ranges, rows in random order: the index finds what a scan of every item finds.
  @Test func agreesWithAScan() {
    var rng = SplitMix(seed: 5)
    for _ in 0..<40 {
      var line = 0
      func group(_ depth: Int, _ id: String) -> GroupSpec {
        let start = line
        line += 1
        let subgroups = depth < 2 ? (0..<Int(rng.next() % 3)).map { group(depth + 1, "\(id).\($0)") } : []
        var rows: [RowSpec] = []
        for r in 0..<Int(rng.next() % 4) {
          let from = line
          line += 1 + Int(rng.next() % 3)
          rows.append(RowSpec(id: "\(id)r\(r)", title: "\(rng.next() % 100)", source: Self.range(from, 6, line, 4)))
        }
        line += Int(rng.next() % 2)
        return GroupSpec(
          id: id, title: id, order: rng.next() % 2 == 0 ? .title : nil, groups: subgroups, rows: rows,
          source: Self.range(start, 4, line, 2))
      }
      let doc = OutlineDocument(groups: (0..<3).map { group(0, "g\($0)") })
      var s = OutlineState(outline: Outline(document: doc))
      let outline = s.outline
      for l in 0...line {
        for c in [0, 3, 4, 5, 6, 9] {
          let p = SourcePosition(line: l, column: c)
          // The scan: of the items holding p, the one with the latest start (the innermost).
          let holding = (0..<outline.count).filter {
            outline.source(at: $0).start <= p && p < outline.source(at: $0).end
          }
          let expected = holding.max { outline.source(at: $0).start < outline.source(at: $1).start }
          #expect(s.innermostItem(containing: p) == expected, "at \(l):\(c)")
        }
      }
    }
  }
}
