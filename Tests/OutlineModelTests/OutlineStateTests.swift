import Testing

@testable import OutlineModel

@Suite struct OutlineStateTests {
  func state(_ doc: OutlineDocument = Fixtures.contacts, policy: ExpansionPolicy? = nil) -> OutlineState {
    var layout = LayoutOverrides()
    layout.rowHeight = .fixed(2)
    return OutlineState(outline: Outline(document: doc), policy: policy, layout: layout)
  }

  func ids(_ s: OutlineState) -> [String] {
    s.visibleItems(start: 0, count: s.total).map { s.item($0.position).id }
  }

  @Test func startsWithTheFileExpansion() {
    let s = state()
    #expect(ids(s) == ["friends", "family", "work"])
    #expect(s.total == 3)
    #expect(s.contentHeight == 3)
    #expect(s.version == 1)
  }

  @Test func toggleReturnsAReplayableChangeList() throws {
    var s = state()
    let family = s.outline.position(of: "family")!
    let r = try s.toggle(family)
    #expect(r.changes == [OutlineChange(.insert, start: 2, count: 2)])
    #expect(r.updatedGroups == ["family"])
    #expect(ids(s) == ["friends", "family", "cousins", "mum", "work"])
    #expect(s.version == 2)
    let r2 = try s.toggle(s.outline.position(of: "cousins")!)
    #expect(r2.changes == [OutlineChange(.insert, start: 3, count: 2)])
    #expect(s.contentHeight == 1 + 1 + 1 + 2 + 2 + 2 + 1)
    let r3 = try s.toggle(family)
    #expect(r3.changes == [OutlineChange(.delete, start: 2, count: 4)])
    #expect(s.version == 4)
  }

  @Test func togglingAHiddenGroupChangesNothingVisible() throws {
    var s = state()
    let r = try s.toggle(s.outline.position(of: "cousins")!, scrollTop: 7)
    #expect(r.changes.isEmpty)
    #expect(r.updatedGroups == ["cousins"])
    #expect(r.scrollTop == 7)
    #expect(s.version == 1)
    #expect(s.isExpanded(s.outline.position(of: "cousins")!))
  }

  @Test func settingTheCurrentStateIsANoOp() throws {
    var s = state()
    let r = try s.toggle(s.outline.position(of: "family")!, expanded: false)
    #expect(r == ExpansionResult())
    #expect(s.version == 1)
  }

  @Test func rowsAreNotSections() {
    var s = state()
    #expect(throws: OutlineError.notAGroup) { try s.toggle(s.outline.position(of: "alice")!) }
    #expect(throws: OutlineError.notAGroup) { try s.toggle(99) }
    #expect(throws: OutlineError.notAGroup) { try s.toggle(-1) }
  }

  @Test func singlePolicyClosesTheOpenSibling() throws {
    var s = state(policy: .single)
    _ = try s.toggle(s.outline.position(of: "friends")!)
    #expect(ids(s) == ["friends", "alice", "bob", "carol", "family", "work"])
    let before = referenceVisibleList(s)
    let r = try s.toggle(s.outline.position(of: "family")!)
    #expect(r.changes == [OutlineChange(.delete, start: 1, count: 3), OutlineChange(.insert, start: 2, count: 2)])
    #expect(Set(r.updatedGroups) == ["friends", "family"])
    #expect(ids(s) == ["friends", "family", "cousins", "mum", "work"])
    #expect(replay(r.changes, on: before, new: referenceVisibleList(s)) == referenceVisibleList(s))
    #expect(throws: OutlineError.expandAllUnderSinglePolicy) { try s.expandAll() }
  }

  @Test func singlePolicyWarnsWhenTheFileOpensTwoSiblings() {
    var doc = Fixtures.contacts
    doc.expansion = .single
    doc.groups[0].expanded = true
    doc.groups[1].expanded = true
    let s = state(doc)
    #expect(s.warnings.map(\.code) == ["single-policy"])
    #expect(ids(s).prefix(5) == ["friends", "alice", "bob", "carol", "family"])
    #expect(!s.isExpanded(s.outline.position(of: "family")!))
    // The openOutline policy wins over the file's.
    let m = state(doc, policy: .multiple)
    #expect(m.warnings.isEmpty)
    #expect(m.isExpanded(m.outline.position(of: "family")!))
  }

  /// A new text's warnings replace the old text's: they are about the file as it reads now.
  @Test func aNewTextBringsItsOwnWarnings() {
    var doc = Fixtures.contacts
    doc.expansion = .single
    var s = state(doc)
    #expect(s.warnings.isEmpty)
    doc.groups[0].expanded = true
    doc.groups[1].expanded = true
    _ = s.replace(with: Outline(document: doc))
    #expect(s.warnings.map(\.code) == ["single-policy"])
    doc.groups[1].expanded = nil
    _ = s.replace(with: Outline(document: doc))
    #expect(s.warnings.isEmpty)
  }

  @Test func scrollTopKeepsTheToggledHeaderInPlace() throws {
    var s = state(policy: .single)
    _ = try s.toggle(s.outline.position(of: "friends")!)
    // friends(1) alice bob carol (2 each) family(1) → family's top is 7.
    let family = s.outline.position(of: "family")!
    #expect(s.visibleItem(at: family)?.top == 7)
    let r = try s.toggle(family, scrollTop: 10)
    // friends closed above it: family moves up by 6.
    #expect(s.visibleItem(at: family)?.top == 1)
    #expect(r.scrollTop == 4)
    let r2 = try s.toggle(s.outline.position(of: "friends")!, scrollTop: 0)
    #expect(r2.scrollTop == 0)
    let r3 = try s.toggle(family, scrollTop: 2, viewportHeight: 100)
    #expect(r3.scrollTop == 0)
  }

  @Test func expandAllAndCollapseAllGiveShortestChangeLists() throws {
    var s = state()
    let r = try s.expandAll()
    #expect(r.changes == [OutlineChange(.insert, start: 1, count: 3), OutlineChange(.insert, start: 5, count: 4)])
    #expect(Set(r.updatedGroups) == ["friends", "family", "cousins", "work"])
    #expect(s.total == 10)
    let c = s.collapseAll()
    #expect(c.changes == [OutlineChange(.delete, start: 1, count: 3), OutlineChange(.delete, start: 2, count: 4)])
    #expect(s.total == 3)
    var d = state()
    let r2 = try d.expandAll(depth: 1)
    #expect(!d.isExpanded(d.outline.position(of: "cousins")!))
    #expect(r2.changes == [OutlineChange(.insert, start: 1, count: 3), OutlineChange(.insert, start: 5, count: 2)])
  }

  @Test func hitTestingFollowsHeights() throws {
    var s = state()
    _ = try s.toggle(s.outline.position(of: "friends")!)
    // friends [0,1) alice [1,3) bob [3,5) carol [5,7) family [7,8) work [8,9)
    #expect(s.visibleItem(atOffset: 0)?.index == 0)
    #expect(s.visibleItem(atOffset: 0.99)?.index == 0)
    #expect(s.visibleItem(atOffset: 1)?.index == 1)
    #expect(s.visibleItem(atOffset: 4.5)?.index == 2)
    #expect(s.visibleItem(atOffset: -3)?.index == 0)
    #expect(s.visibleItem(atOffset: 8.5)?.index == 5)
    #expect(s.visibleItem(atOffset: 1000)?.index == 5)
  }

  @Test func zeroHeightRowsAreNeverHit() throws {
    var layout = LayoutOverrides()
    layout.rowHeight = .fixed(0)
    var s = OutlineState(outline: Outline(document: Fixtures.contacts), layout: layout)
    _ = try s.toggle(s.outline.position(of: "friends")!)
    #expect(s.visibleItem(atOffset: 0.5)?.index == 0)
    #expect(s.visibleItem(atOffset: 1)?.index == 4)
    // Items of height 0 intersect no viewport.
    #expect(s.visibleItems(viewportTop: 0, height: 1, limit: 100).map(\.index) == [0])
    #expect(s.visibleItems(viewportTop: 1, height: 1, limit: 100).map(\.index) == [4])
    #expect(s.visibleItems(viewportTop: 0, height: 5, limit: 100).map(\.index) == [0, 4, 5])
  }

  @Test func viewportReturnsTheRowsThatIntersectIt() throws {
    var s = state()
    _ = try s.toggle(s.outline.position(of: "friends")!)
    #expect(s.visibleItems(viewportTop: 2, height: 2, limit: 100).map(\.index) == [1, 2])
    #expect(s.visibleItems(viewportTop: 0, height: 100, limit: 100).count == 6)
    #expect(s.visibleItems(viewportTop: 0, height: 100, limit: 2).count == 2)
    #expect(s.visibleItems(viewportTop: 9, height: 5, limit: 100).isEmpty)
    #expect(s.visibleItems(viewportTop: -5, height: 5.5, limit: 100).map(\.index) == [0])
  }

  @Test func windowsAreClipped() {
    let s = state()
    #expect(s.visibleItems(start: 1, count: 10).map(\.index) == [1, 2])
    #expect(s.visibleItems(start: 3, count: 10).isEmpty)
    #expect(s.visibleItems(start: 0, count: 0).isEmpty)
  }

  /// A window of no items or fewer, and a viewport of no height or less, hold
  /// nothing, also when they start inside an item.
  @Test func emptyWindowsAndViewportsHoldNoItems() throws {
    var s = state()
    _ = try s.toggle(s.outline.position(of: "friends")!)
    for count in [0, -1, Int.min] {
      #expect(s.visibleItems(start: 1, count: count).isEmpty, "\(count)")
    }
    for height in [0, -0.5, -100] {
      #expect(s.visibleItems(viewportTop: 2, height: height, limit: 100).isEmpty, "\(height)")
    }
  }

  @Test func layoutChangesHeightsAndVersionOnlyWhenItChanges() throws {
    var s = state()
    var l = LayoutOverrides()
    l.rowHeight = .fixed(2)
    let unchanged = s.setLayout(l)
    #expect(!unchanged)
    #expect(s.version == 1)
    l.headerHeight = .fixed(3)
    let changed = s.setLayout(l)
    #expect(changed)
    #expect(s.version == 2)
    #expect(s.contentHeight == 9)
  }

  @Test func autoHeightsWrapAtTheIndentedWidth() throws {
    let doc = OutlineDocument(groups: [
      Fixtures.group(
        "G", expanded: true, rows: [Fixtures.row("Alice", detail: String(repeating: "x", count: 25))])
    ])
    var l = LayoutOverrides()
    l.width = 12
    var s = OutlineState(outline: Outline(document: doc), layout: l)
    // wrap width 12 − 2 × 1 = 10: title 1 line + detail 3 lines.
    #expect(s.visibleItem(atIndex: 1)?.height == 4)
    var p = LayoutOverrides()
    p.paddingTop = 1
    p.paddingBottom = 1
    p.paddingLeft = 5
    p.maxLines = 2
    s.setLayout(p)
    // wrap width 12 − 2 − 5 = 5: detail 5 lines capped at 2.
    let padded: Double = 1 + 1 + 1 + 2
    #expect(s.visibleItem(atIndex: 1)?.height == padded)
    var h = LayoutOverrides()
    h.headerHeight = .auto
    s.setLayout(h)
    #expect(s.visibleItem(atIndex: 0)?.height == 3)
  }

  @Test func replaceKeepsTheUsersExpansionAndReportsTheChange() throws {
    var s = state()
    _ = try s.toggle(s.outline.position(of: "family")!)
    var doc = Fixtures.contacts
    doc.groups[1].expanded = false
    doc.groups[0].expanded = true
    doc.groups[0].rows.append(Fixtures.row("Zed", id: "zed"))
    doc.groups.append(Fixtures.group("New", id: "new", expanded: true, rows: [Fixtures.row("n")]))
    let before = referenceVisibleList(s)
    let changes = s.replace(with: Outline(document: doc))
    // friends keeps the user's closed state; family stays open; new takes the file's value.
    #expect(ids(s) == ["friends", "family", "cousins", "mum", "work", "new", "New/n"])
    #expect(replay(changes, on: before, new: referenceVisibleList(s)) == referenceVisibleList(s))
    // friends' header now counts 4 rows and work is no longer the last group: both redraw.
    #expect(changes == [OutlineChange(.delete, start: 0, count: 5), OutlineChange(.insert, start: 0, count: 7)])
    #expect(s.version == 3)
    let same = s.replace(with: Outline(document: doc))
    #expect(same.isEmpty)
    #expect(s.version == 3)
    // One visible row's detail changes: only that row is replaced.
    doc.groups[1].rows[0].detail = "at home"
    let one = s.replace(with: Outline(document: doc))
    #expect(one == [OutlineChange(.delete, start: 3, count: 1), OutlineChange(.insert, start: 3, count: 1)])
    #expect(s.version == 4)
  }

  @Test func aNewTextThatChangesNothingShownKeepsTheVersion() throws {
    // Friends, Family and Work all closed: only their headers are shown.
    var s = state()
    #expect(s.total == 3)
    var doc = Fixtures.contacts
    // `expanded: true` on a group the user keeps closed: the user's state is shown.
    doc.groups[0].expanded = true
    #expect(s.replace(with: Outline(document: doc)).isEmpty)
    #expect(s.version == 1)
    #expect(!s.isExpanded(s.outline.position(of: "friends")!))
    // A row inside a closed group gets a new title.
    doc.groups[0].rows[1].title = "Robert"
    #expect(s.replace(with: Outline(document: doc)).isEmpty)
    #expect(s.version == 1)
    // A hidden row that stops being active changes its group's header (2/3 → 1/3).
    doc.groups[0].rows[0].active = false
    #expect(
      s.replace(with: Outline(document: doc)) == [
        .init(.delete, start: 0, count: 1), .init(.insert, start: 0, count: 1),
      ])
    #expect(s.version == 2)
  }

  @Test func anItemWhoseIsLastChildTurnsIsChanged() throws {
    // A new last group: Work, shown before it, stops being the last child.
    var s = state()
    var doc = Fixtures.contacts
    doc.groups.append(Fixtures.group("Hobbies", id: "hobbies"))
    let changes = s.replace(with: Outline(document: doc))
    #expect(changes == [.init(.delete, start: 2, count: 1), .init(.insert, start: 2, count: 2)])
  }

  @Test func randomOperationsMatchTheReferenceModel() throws {
    for policy in [ExpansionPolicy.multiple, .single] {
      var rng = SplitMix(seed: 7)
      var s = OutlineState(
        outline: Outline(document: Fixtures.generated(groups: 30, rowsPerGroup: 4)), policy: policy)
      let groups = s.outline.items.indices.filter { s.outline.items[$0].isGroup }
      var old = referenceVisibleList(s)
      for step in 0..<400 {
        let result: ExpansionResult
        switch rng.next() % 20 {
        case 0 where policy == .multiple: result = try s.expandAll(depth: Int(rng.next() % 3))
        case 1: result = s.collapseAll()
        default:
          let g = groups[Int(rng.next() % UInt64(groups.count))]
          let set: Bool? = rng.next() % 3 == 0 ? rng.next() % 2 == 0 : nil
          result = try s.toggle(g, expanded: set)
        }
        let new = referenceVisibleList(s)
        #expect(replay(result.changes, on: old, new: new) == new, "step \(step)")
        #expect(s.total == new.count)
        #expect(s.visibleItems(start: 0, count: s.total).map(\.position) == new)
        if policy == .single {
          for g in groups where s.isExpanded(g) {
            let siblings = s.outline.subgroups(of: s.outline.items[g].parent).filter { s.isExpanded($0) }
            #expect(siblings == [g])
          }
        }
        old = new
      }
    }
  }
}
