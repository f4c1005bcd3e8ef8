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

  @Test func utf8RangesAreTheRangesOfTheTextAsByteOffsets() {
    var rng = SplitMix(seed: 11)
    let letters = Array("aAbB cßSé😀")
    for _ in 0..<400 {
      let text = String((0..<Int(rng.next() % 16)).map { _ in letters[Int(rng.next() % UInt64(letters.count))] })
      let query = String((0..<Int(1 + rng.next() % 3)).map { _ in letters[Int(rng.next() % 6)] })
      let m = TextMatch(query: query)
      let expected = m.ranges(in: text).map {
        text.utf8.distance(
          from: text.startIndex, to: $0.lowerBound)..<text.utf8.distance(
            from: text.startIndex, to: $0.upperBound)
      }
      var copy = text
      let got = copy.withUTF8 { m.utf8Ranges(in: $0) }
      #expect(got == expected, "\(query) in \(text)")
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

  /// The query is folded by the filter itself (PROTOCOL §6: Unicode default
  /// case folding, not lowercasing): "Straße" and "STRASSE" find the same
  /// rows, and so do "ΣΑΣ" and "σας", whose final sigma folds to σ.
  @Test func theQueryIsCaseFoldedNotLowercased() {
    for query in ["Straße", "STRASSE", "strasse", "sTrAßE", "STRAẞE"] {
      var s = state()
      let (_, matches) = s.filter(query)
      #expect(ids(s) == ["friends", "alice", "family", "cousins", "Family/Cousins/Eve"], "\(query)")
      #expect(matches.map(\.index) == [1, 4], "\(query)")
      #expect(s.visibleItems(start: 0, count: s.total).map(\.position) == referenceFilteredList(s), "\(query)")
    }
    var doc = Fixtures.contacts
    doc.groups[2].rows = [Fixtures.row("Σας ευχαριστώ", id: "thanks")]
    for query in ["ΣΑΣ", "σας", "Σας"] {
      var s = OutlineState(outline: Outline(document: doc))
      let (_, matches) = s.filter(query)
      #expect(ids(s) == ["work", "thanks"], "\(query)")
      #expect(matches.first?.titleRanges.count == 1, "\(query)")
    }
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

extension FilterTests {
  /// Friends holds a subgroup "Old friends"; Family holds "Cousins"; the
  /// title "family" occurs in the group Family and in the row "Family
  /// doctor" inside Friends.
  func nested(policy: ExpansionPolicy? = nil) -> OutlineState {
    let doc = OutlineDocument(groups: [
      Fixtures.group(
        "Friends", id: "friends",
        groups: [Fixtures.group("Old friends", id: "old", rows: [Fixtures.row("Zed", id: "zed")])],
        rows: [Fixtures.row("Alice", id: "alice"), Fixtures.row("Family doctor", id: "doctor")]),
      Fixtures.group(
        "Family", id: "family",
        groups: [Fixtures.group("Cousins", id: "cousins", rows: [Fixtures.row("Dan", id: "dan")])],
        rows: [Fixtures.row("Mum", id: "mum", detail: "family chat")]),
      Fixtures.group("Work", id: "work", rows: [Fixtures.row("Boss", id: "boss")]),
    ])
    return OutlineState(outline: Outline(document: doc), policy: policy)
  }

  /// What the filter shows, from PROTOCOL §6 alone: items whose own text
  /// contains the folded query, every item of a matching group's subtree,
  /// and the ancestors of all of those, in document order.
  func shownByDefinition(_ s: OutlineState, _ query: String) -> [String] {
    positionsShownByDefinition(s.outline, query).map { s.outline.items[$0].id }
  }

  @Test func aGroupTitleMatchShowsItsWholeSubtreeExpanded() {
    var s = nested()
    let before = referenceVisibleList(s)
    let (r, matches) = s.filter("FAMILY")
    #expect(ids(s) == ["friends", "doctor", "family", "cousins", "dan", "mum"])
    #expect(ids(s) == shownByDefinition(s, "FAMILY"))
    for id in ["friends", "family", "cousins"] { #expect(s.isExpanded(s.outline.position(of: id)!)) }
    #expect(replay(r.changes, on: before, new: referenceFilteredList(s)) == referenceFilteredList(s))
    // The rows and groups whose own text matched, in visible order; Dan is
    // shown only because Family matched, so he is not listed.
    #expect(matches.map { s.outline.id(at: $0.position) } == ["doctor", "family", "mum"])
    #expect(matches.map(\.index) == [1, 2, 5])
    let family = matches[1]
    let title = Array(s.outline.title(at: family.position).utf8)
    #expect(family.titleRanges.map { String(decoding: title[$0], as: UTF8.self) } == ["Family"])
    #expect(family.detailRanges.isEmpty)
    #expect(matches[2].titleRanges.isEmpty && matches[2].detailRanges.count == 1)
    #expect(s.isLastChild(s.outline.position(of: "doctor")!))
    #expect(s.isLastChild(s.outline.position(of: "family")!))
  }

  @Test func aShownRowWhoseIsLastChildTurnsIsReplacedInTheChangeList() throws {
    // Friends open: Old friends, Alice, Family doctor; filter "alice" keeps Friends and
    // Alice, and both become the last shown of their parents.
    var s = nested()
    _ = try s.toggle(s.outline.position(of: "friends")!)
    let before = referenceVisibleList(s)
    let lastBefore = Dictionary(uniqueKeysWithValues: before.map { ($0, s.isLastChild($0)) })
    let (r, _) = s.filter("alice")
    let after = referenceFilteredList(s)
    #expect(ids(s) == ["friends", "alice"])
    // Replayed, the changes give the new list, and every kept item shown otherwise now is
    // among the items they insert (a host fetches exactly those).
    var list: [Int?] = before
    for c in r.changes {
      if c.kind == .delete {
        list.removeSubrange(c.start..<(c.start + c.count))
      } else {
        list.insert(contentsOf: [Int?](repeating: nil, count: c.count), at: c.start)
      }
    }
    #expect(list.count == after.count)
    for (i, p) in list.enumerated() {
      if let p {
        #expect(p == after[i])
        #expect(lastBefore[p] == s.isLastChild(p), "\(s.outline.id(at: p)) kept with a stale isLastChild")
      }
    }
    #expect(r.changes.first == OutlineChange(.delete, start: 0, count: 1))
  }

  @Test func aMatchingGroupInsideAMatchingGroupIsListedOnce() {
    var s = nested()
    let (_, matches) = s.filter("friends")
    #expect(ids(s) == ["friends", "old", "zed", "alice", "doctor"])
    #expect(matches.map { s.outline.id(at: $0.position) } == ["friends", "old"])
  }

  @Test func groupMatchesAgreeWithTheDefinitionOnGeneratedOutlines() {
    let doc = Fixtures.generated(groups: 40, rowsPerGroup: 5)
    for query in ["Group 1", "sub", "r3", "3", "s9r", "group"] {
      var s = OutlineState(outline: Outline(document: doc))
      _ = s.filter(query)
      #expect(ids(s) == shownByDefinition(s, query), "\(query)")
    }
  }
}

extension FilterTests {
  // While filtered, toggles, navigate keys and expandSiblings act only on
  // the groups shown (PROTOCOL §8).

  @Test func underSingleOpeningAShownGroupClosesOnlyItsShownSiblings() throws {
    var s = nested(policy: .single)
    let work = s.outline.position(of: "work")!
    _ = try s.toggle(work)
    _ = s.filter("family")
    #expect(!s.isVisible(work) && s.isExpanded(work))
    let friends = s.outline.position(of: "friends")!
    _ = try s.toggle(friends, expanded: false)
    let r = try s.toggle(friends, expanded: true)
    #expect(r.updatedGroups == ["family", "friends"])
    #expect(!s.isExpanded(s.outline.position(of: "family")!))
    // Work is hidden by the filter: it keeps its state.
    #expect(s.isExpanded(work))
  }

  @Test func expandingAShownOpenGroupChangesNothing() throws {
    var s = nested()
    _ = s.filter("family")
    let version = s.version
    let r = try s.toggle(s.outline.position(of: "family")!, expanded: true)
    #expect(r.changes.isEmpty && r.updatedGroups.isEmpty)
    #expect(s.version == version)
  }

  @Test func expandSiblingsOpensOnlyTheShownSiblings() throws {
    var s = nested()
    _ = s.filter("family")
    let friends = s.outline.position(of: "friends")!
    let family = s.outline.position(of: "family")!
    _ = try s.toggle(friends, expanded: false)
    _ = try s.toggle(family, expanded: false)
    let r = try s.navigate(from: family, key: .expandSiblings)
    #expect(r.expansion?.updatedGroups == ["friends", "family"])
    #expect(!s.isExpanded(s.outline.position(of: "work")!))
    #expect(ids(s) == ["friends", "doctor", "family", "cousins", "dan", "mum"])
  }

  @Test func navigateKeysActOnTheShownGroups() throws {
    var s = nested()
    _ = s.filter("family")
    let family = s.outline.position(of: "family")!
    let left = try s.navigate(from: family, key: .left)
    #expect(left.toggled == family && !s.isExpanded(family))
    #expect(ids(s) == ["friends", "doctor", "family"])
    let right = try s.navigate(from: family, key: .right)
    #expect(right.toggled == family)
    #expect(ids(s) == ["friends", "doctor", "family", "cousins", "dan", "mum"])
    // Clearing the filter forgets what was toggled while filtered.
    _ = s.filter("")
    #expect(s.expandedIDs.isEmpty)
  }
}

/// The items a filter shows, from PROTOCOL §6 alone: items whose own text
/// contains the folded query, every item of a matching group's subtree, and
/// the ancestors of all of those; positions in document order.
func positionsShownByDefinition(_ outline: Outline, _ query: String) -> [Int] {
  let q = CaseFolding.fold(query)
  let items = outline.items
  func own(_ i: OutlineItem) -> Bool {
    CaseFolding.fold(i.title).contains(q) || (!i.isGroup && CaseFolding.fold(i.detail ?? "").contains(q))
  }
  var shown = Set<Int>()
  for p in items.indices where own(items[p]) {
    for q in p..<items[p].end { shown.insert(q) }
    var a = items[p].parent
    while let x = a {
      shown.insert(x)
      a = items[x].parent
    }
  }
  return items.indices.filter { shown.contains($0) }
}

/// The filtered list the slow way, without the filter's own bookkeeping: the
/// items §6 shows for the state's query whose ancestors are all expanded (the
/// unfiltered list when no filter is in force).
func referenceFilteredList(_ s: OutlineState) -> [Int] {
  guard let query = s.filterQuery else { return referenceVisibleList(s) }
  let items = s.outline.items
  func ancestorsExpanded(_ p: Int) -> Bool {
    var a = items[p].parent
    while let x = a {
      if !s.isExpanded(x) { return false }
      a = items[x].parent
    }
    return true
  }
  return positionsShownByDefinition(s.outline, query).filter(ancestorsExpanded)
}
