import Testing

@testable import OutlineModel

@Suite struct FilterTests {
  func state(policy: ExpansionPolicy? = nil) -> OutlineState {
    var doc = Fixtures.contacts
    doc.groups[0].rows[0].detail = "Straße in Lisbon"
    doc.groups[1].groups[0].rows[1].detail = "STRASSE"
    return OutlineState(outline: Outline(document: doc), policy: policy)
  }

  func ids(_ s: OutlineState) -> [String] {
    s.visibleItems(start: 0, count: s.total).map { s.item($0.position).id }
  }

  @Test func caseFoldingIsFullFolding() {
    #expect(CaseFolding.fold("Straße") == "strasse")
    #expect(CaseFolding.fold("ΣΑΣ") == "σασ")
    #expect(CaseFolding.fold("ABC") == "abc")
    #expect(CaseFoldingTable.unicodeVersion.split(separator: ".").count == 3)
  }

  @Test func rangesCoverWholeCharactersOfAnExpansion() {
    let m = TextMatch(query: "s")
    let text = "aßs"
    let r = m.ranges(in: text)
    #expect(r.map { String(text[$0]) } == ["ß", "s"])
    let t = TextMatch(query: "SS")
    #expect(t.ranges(in: "Straße ss").map { String("Straße ss"[$0]) } == ["ß", "ss"])
    #expect(TextMatch(query: "aa").ranges(in: "aaaa").count == 2)
  }

  @Test func asciiAndGeneralSearchesAgree() {
    var rng = SplitMix(seed: 3)
    let letters = Array("aAbB c")
    for _ in 0..<300 {
      let text = String((0..<Int(rng.next() % 20)).map { _ in letters[Int(rng.next() % 6)] })
      let query = String((0..<Int(1 + rng.next() % 3)).map { _ in letters[Int(rng.next() % 6)] })
      let m = TextMatch(query: query)
      // A trailing "é" sends the same text down the general (folding) path.
      let general = text + "é"
      let ascii = m.ranges(in: text).map { text.utf8.distance(from: text.startIndex, to: $0.lowerBound) }
      let folded = m.ranges(in: general).map { general.utf8.distance(from: general.startIndex, to: $0.lowerBound) }
      #expect(ascii == folded, "\(query) in \(text)")
    }
  }

  @Test func filterKeepsMatchesAndTheirAncestorsExpanded() {
    var s = state()
    let before = referenceVisibleList(s)
    let (r, matches) = s.filter("strasse")
    #expect(ids(s) == ["friends", "alice", "family", "cousins", "Family/Cousins/Eve"])
    #expect(replay(r.changes, on: before, new: referenceFilteredList(s)) == referenceFilteredList(s))
    #expect(Set(r.updatedGroups) == ["friends", "family", "cousins"])
    #expect(matches.map(\.index) == [1, 4])
    #expect(matches[0].titleRanges.isEmpty)
    #expect(matches[0].detailRanges.count == 1)
    #expect(s.isLastChild(s.outline.position(of: "alice")!))
    #expect(s.isLastChild(s.outline.position(of: "family")!))
    #expect(s.version == 2)
  }

  @Test func emptyQueryRestoresTheUsersExpansionAndForgetsFilteredToggles() throws {
    var s = state()
    _ = try s.toggle(s.outline.position(of: "friends")!)
    let userView = ids(s)
    _ = s.filter("e")
    _ = try s.toggle(s.outline.position(of: "family")!)
    #expect(!s.isExpanded(s.outline.position(of: "family")!))
    #expect(s.expandedIDs == ["friends"])
    let old = referenceFilteredList(s)
    let (r, matches) = s.filter("")
    #expect(matches.isEmpty)
    #expect(ids(s) == userView)
    #expect(replay(r.changes, on: old, new: referenceVisibleList(s)) == referenceVisibleList(s))
    #expect(s.filterQuery == nil)
  }

  @Test func noMatchHidesEverything() {
    var s = state()
    let (r, m) = s.filter("zzz")
    #expect(s.total == 0)
    #expect(m.isEmpty)
    #expect(r.changes == [OutlineChange(.delete, start: 0, count: 3)])
  }

  @Test func aNewQueryStartsFromTheUsersExpansion() throws {
    var s = state()
    _ = s.filter("a")
    _ = try s.toggle(s.outline.position(of: "friends")!)
    _ = s.filter("al")
    #expect(s.isExpanded(s.outline.position(of: "friends")!))
  }

  @Test func filterWorksUnderSinglePolicy() throws {
    var s = state(policy: .single)
    _ = s.filter("e")
    #expect(s.isExpanded(s.outline.position(of: "friends")!))
    #expect(s.isExpanded(s.outline.position(of: "family")!))
    _ = try s.toggle(s.outline.position(of: "friends")!, expanded: false)
    _ = try s.toggle(s.outline.position(of: "friends")!, expanded: true)
    #expect(!s.isExpanded(s.outline.position(of: "family")!))
    _ = s.filter("")
    #expect(s.expandedIDs.isEmpty)
  }

  @Test func replaceKeepsTheFilter() {
    var s = state()
    _ = s.filter("alice")
    var doc = Fixtures.contacts
    doc.groups[2].rows = [Fixtures.row("Alice Two", id: "alice2")]
    _ = s.replace(with: Outline(document: doc))
    #expect(ids(s) == ["friends", "alice", "work", "alice2"])
  }
}

/// The filtered list the slow way: shown items whose ancestors are all expanded.
func referenceFilteredList(_ s: OutlineState) -> [Int] {
  (0..<s.outline.count).filter { s.isVisible($0) }
}
