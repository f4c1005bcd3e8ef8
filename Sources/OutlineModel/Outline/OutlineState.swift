/// An open outline: its structure, the user's expansion, the layout, the
/// heights and the visible list (PROTOCOL §4–§5).
///
/// The visible list is kept in a ``VisibilityIndex``, so that a toggle, a
/// visible-index lookup, a hit test and a `top` are O(log n), whatever the
/// size of the outline or the toggled group. Operations that touch every
/// group (expand all, collapse all, a new layout, a new text) are O(n).
///
/// `version` starts at 1 and grows by one with every change to the visible
/// list, a height or the layout.
public struct OutlineState: Sendable {
  /// The outline's structure: its items, in document order.
  public internal(set) var outline: Outline
  /// The effective policy: the `openOutline` policy, else the file's, else `multiple`.
  public var policy: ExpansionPolicy { policyOverride ?? outline.expansion ?? .multiple }
  /// The `openOutline` `policy`, which wins over the file's `expansion`.
  public private(set) var policyOverride: ExpansionPolicy?
  /// Layout fields given by the host (`openOutline.layout`, then `setLayout`), over the file's.
  public private(set) var hostLayout: LayoutOverrides
  /// The effective layout.
  public private(set) var layout: Layout
  /// Starts at 1 and grows by one with every change to the visible list, a height or the
  /// layout; unchanged by reads, failed writes and writes that change nothing (PROTOCOL §8).
  public internal(set) var version: Int = 1
  /// Makes the line breaker of each layout (the seam of `auto` heights).
  public let lineBreakers: any LineBreakerSource
  /// Breaks titles and details into lines under the current ``layout``.
  public private(set) var lineBreaker: any LineBreaker

  var expanded: [Bool]
  /// The visible-list index, which also holds every item's height.
  var index: VisibilityIndex
  /// Per item, its height (the index's array: heights are stored once).
  var heights: [Double] { index.heights }
  /// Under `single`: the open child of each parent (`-1` for the top level); unused while filtered.
  var openChild: [Int: Int] = [:]
  /// The filter in force, if any (see `filter(_:)`).
  var filter: FilterState? = nil
  /// Case-folded titles and details of the items, made by the first filter.
  var foldedTexts: FoldedTexts? = nil
  /// The items by source position, made by the first ``innermostItem(containing:)``.
  var sourceIndex: SourceIndex? = nil
  /// The focused item's position, set by `navigate`; kept while hidden.
  public internal(set) var focus: Int? = nil
  /// The last scroll offset a host gave or was given back, in the layout's
  /// unit (cells or px); `nil` until one was.
  public var scrollTop: Double? = nil

  /// Opens an outline.
  /// - Parameters:
  ///   - outline: the structure.
  ///   - policy: `openOutline`'s `policy`, which wins over the file's `expansion`.
  ///   - layout: `openOutline`'s `layout` fields, over the file's `layout:`.
  ///   - lineBreakers: makes the line breaker of each layout for `auto` heights
  ///     (``CellLineBreakers`` by default: cells and px).
  /// - Returns: with the state, warnings for siblings the file opens together under `single`.
  /// - Complexity: O(n) plus the text measured by `auto` heights.
  public init(
    outline: Outline, policy: ExpansionPolicy? = nil, layout: LayoutOverrides = LayoutOverrides(),
    lineBreakers: any LineBreakerSource = CellLineBreakers()
  ) {
    self.init(
      outline: outline, policy: policy, layout: layout, lineBreakers: lineBreakers,
      restoring: EmptyCollection<(id: String, expanded: Bool)>())
  }

  /// Opens an outline with a user's saved expansion over the file's: as
  /// ``init(outline:policy:layout:lineBreakers:)`` then
  /// ``restoreExpansion(_:after:)``, without building the visible-list index
  /// twice (a big outline's index is rebuilt in O(n), with its memory).
  /// - Parameter expansion: groups by id and their state; unknown ids and
  ///   rows are ignored, an id named twice takes its last state.
  public init(
    outline: Outline, policy: ExpansionPolicy? = nil, layout: LayoutOverrides = LayoutOverrides(),
    lineBreakers: any LineBreakerSource = CellLineBreakers(),
    restoring expansion: some Sequence<(id: String, expanded: Bool)>
  ) {
    self.outline = outline
    self.policyOverride = policy
    self.hostLayout = layout
    self.lineBreakers = lineBreakers
    self.layout = Layout().applying(outline.layout).applying(layout)
    self.lineBreaker = lineBreakers.lineBreaker(for: self.layout)
    expanded = (0..<outline.count).map { outline.expandedInFile(at: $0) ?? false }
    index = VisibilityIndex(covers: [], heights: [])
    // The file's warnings are about the file's own `expanded`, whatever the user had.
    warnings = fileWarnings()
    apply(expansion)
    normalizeSingleSilently()
    rebuildIndex(heights: measuredHeights())
  }

  /// Sets the groups `states` names to their state (see ``restoreExpansion(_:after:)``).
  private mutating func apply(_ states: some Sequence<(id: String, expanded: Bool)>) {
    // A local outline: reading `self.outline` while `self` changes reloads (and retains) it per call.
    let outline = outline
    for (id, open) in states {
      if let p = outline.position(of: id), outline.isGroup(at: p) { expanded[p] = open }
    }
  }

  /// Warnings found when the state was made (e.g. `single-policy`).
  public private(set) var warnings: [Diagnostic] = []

  // MARK: Reading

  /// Length of the visible list.
  /// - Complexity: O(1).
  public var total: Int { index.visibleCount }

  /// Sum of the visible heights.
  /// - Complexity: O(1).
  public var contentHeight: Double { index.visibleHeight }

  /// The item at `position`.
  /// - Complexity: O(length of its texts): the item is made from the compact storage;
  ///   read single fields through ``outline`` where that is enough.
  public func item(_ position: Int) -> OutlineItem { outline.item(at: position) }

  /// Whether the group at `position` is expanded (the user's state, even when
  /// hidden); always `false` for a row. Traps on a position out of range.
  /// - Complexity: O(1).
  public func isExpanded(_ position: Int) -> Bool { expanded[position] }

  /// The height of the item at `position`, visible or not, in the layout's
  /// unit. Traps on a position out of range.
  /// - Complexity: O(1).
  public func height(_ position: Int) -> Double { index.height(at: position) }

  /// Whether the item at `position` is in the visible list.
  /// - Complexity: O(log n).
  public func isVisible(_ position: Int) -> Bool { index.isVisible(position) }

  /// The visible item at `position`, or `nil` when it is hidden.
  /// - Complexity: O(log n).
  public func visibleItem(at position: Int) -> VisibleItem? {
    guard position >= 0, position < outline.count else { return nil }
    let (cover, i, top) = index.locate(item: position)
    guard cover == 0 else { return nil }
    return visible(position, index: i, top: top)
  }

  /// The item at visible index `i`, or `nil` when out of range.
  /// - Complexity: O(log n).
  public func visibleItem(atIndex i: Int) -> VisibleItem? {
    guard let (p, top) = index.locate(visibleIndex: i) else { return nil }
    return visible(p, index: i, top: top)
  }

  /// The visible items `start ..< start + count`, clipped to the list.
  /// - Complexity: O(log n + count).
  public func visibleItems(start: Int, count: Int) -> [VisibleItem] {
    guard count > 0, var current = visibleItem(atIndex: start) else { return [] }
    var result: [VisibleItem] = []
    result.reserveCapacity(min(count, total - start))
    while true {
      result.append(current)
      guard result.count < count, let next = nextVisible(after: current) else { break }
      current = next
    }
    return result
  }

  /// The visible items that intersect `[top, top + height)`, at most `limit`.
  /// Items of height 0 intersect nothing and are left out.
  /// - Complexity: O(log n + result).
  public func visibleItems(viewportTop top: Double, height: Double, limit: Int) -> [VisibleItem] {
    guard total > 0, height > 0, limit > 0 else { return [] }
    let bottom = top + height
    guard bottom > 0, top < contentHeight else { return [] }
    let first: VisibleItem
    if top <= 0 {
      first = visibleItem(atIndex: 0)!
    } else {
      guard let (p, i, t) = index.locate(offset: top) else { return [] }
      first = visible(p, index: i, top: t)
    }
    var result: [VisibleItem] = []
    var current = first
    while current.top < bottom {
      if current.height > 0 && current.top + current.height > top { result.append(current) }
      guard result.count < limit, let next = nextVisible(after: current) else { break }
      current = next
    }
    return result
  }

  /// The item at `p` as shown at visible index `index`, offset `top`.
  @inline(__always)
  private func visible(_ p: Int, index i: Int, top: Double) -> VisibleItem {
    VisibleItem(position: p, index: i, top: top, height: index.height(at: p), expanded: expanded[p])
  }

  /// The visible item after `v`, in O(1): after an expanded group comes its
  /// first child, after anything else the item that follows its subtree.
  func nextVisible(after v: VisibleItem) -> VisibleItem? {
    if filter != nil { return visibleItem(atIndex: v.index + 1) }
    let p =
      outline.isGroup(at: v.position) && !expanded[v.position]
      ? outline.end(at: v.position) : v.position + 1
    guard p < outline.count else { return nil }
    return visible(p, index: v.index + 1, top: v.top + v.height)
  }

  /// The visible item covering offset `y` (`[top, top + height)`): a
  /// negative `y` gives the first, `y` past the end the last; items of height 0
  /// are never hit. `nil` for an empty list.
  /// - Complexity: O(log n).
  public func visibleItem(atOffset y: Double) -> VisibleItem? {
    guard total > 0 else { return nil }
    let h = contentHeight
    if h <= 0 { return visibleItem(atIndex: total - 1) }
    let target = y < 0 ? 0 : (y >= h ? h.nextDown : y)
    if let (p, i, t) = index.locate(offset: target) {
      return visible(p, index: i, top: t)
    }
    return visibleItem(atIndex: total - 1)
  }

  // MARK: Expansion

  /// Opens, closes or flips the group at `position`; under `single`,
  /// opening it closes its open sibling.
  /// - Parameters:
  ///   - expanded: the state to set; `nil` flips.
  ///   - scrollTop: the host's scroll offset; the result then carries the
  ///     offset that keeps the group's header where it was on screen.
  ///   - viewportHeight: with `scrollTop`, also clamps the result to
  ///     `max(0, contentHeight − viewportHeight)`.
  /// - Throws: ``OutlineError/notAGroup``.
  /// - Complexity: O(log n).
  public mutating func toggle(
    _ position: Int, expanded target: Bool? = nil, scrollTop: Double? = nil, viewportHeight: Double? = nil
  ) throws(OutlineError) -> ExpansionResult {
    guard position >= 0, position < outline.count, outline.isGroup(at: position) else { throw .notAGroup }
    let open = target ?? !expanded[position]
    var result = ExpansionResult()
    let before = visibleItem(at: position)
    if open != expanded[position] {
      if open { closeOpenSiblings(of: position, into: &result) }
      setExpanded(position, open, into: &result)
    }
    if let scrollTop {
      result.scrollTop = anchoredScrollTop(
        scrollTop, before: before, position: position, viewportHeight: viewportHeight)
      self.scrollTop = result.scrollTop
    }
    // A visible header whose arrow turned is a change to the visible list even when no
    // row moved (an empty group); a visible group's open siblings are visible too.
    if !result.changes.isEmpty || (before != nil && !result.updatedGroups.isEmpty) { version += 1 }
    return result
  }

  /// Under `single`, closes the open siblings of group `g`, as opening it
  /// does: while filtered, only the siblings the filter shows.
  /// - Complexity: O(log n) per sibling closed; while filtered, O(siblings).
  mutating func closeOpenSiblings(of g: Int, into result: inout ExpansionResult) {
    guard policy == .single else { return }
    if filter == nil {
      if let sibling = openChild[outline.parent(at: g) ?? -1], sibling != g {
        setExpanded(sibling, false, into: &result)
      }
    } else {
      for sibling in outline.subgroups(of: outline.parent(at: g))
      where sibling != g && expanded[sibling] && filter?.shown[sibling] != false {
        setExpanded(sibling, false, into: &result)
      }
    }
  }

  func anchoredScrollTop(_ scrollTop: Double, before: VisibleItem?, position: Int, viewportHeight: Double?)
    -> Double
  {
    guard let before, let after = visibleItem(at: position) else { return scrollTop }
    var s = max(0, scrollTop + after.top - before.top)
    if let viewportHeight { s = max(0, min(s, contentHeight - viewportHeight)) }
    return s
  }

  /// Sets one group's flag and updates the index, recording the change.
  /// - Complexity: O(log n).
  mutating func setExpanded(_ g: Int, _ open: Bool, into result: inout ExpansionResult) {
    let inner = (g + 1)..<outline.end(at: g)
    // The group's own place does not move when its subtree's covers change.
    let at = visibleItem(at: g)
    // Visible items of the subtree: those before its end, less the group's own
    // place and what precedes it (one walk instead of two).
    func shown(below at: VisibleItem) -> Int { index.prefix(before: inner.upperBound).count - at.index - 1 }
    if !open, let at {
      let n = shown(below: at)
      if n > 0 { result.changes.append(OutlineChange(.delete, start: at.index + 1, count: n)) }
    }
    expanded[g] = open
    index.addCover(open ? -1 : 1, in: inner)
    if open, let at {
      let n = shown(below: at)
      if n > 0 { result.changes.append(OutlineChange(.insert, start: at.index + 1, count: n)) }
    }
    if policy == .single && filter == nil {
      let parent = outline.parent(at: g) ?? -1
      if open { openChild[parent] = g } else if openChild[parent] == g { openChild[parent] = nil }
    }
    result.updatedGroups.append(outline.id(at: g))
  }

  /// Opens every group whose depth is below `depth` (all when `nil`), leaving the others as they are.
  /// - Throws: ``OutlineError/expandAllUnderSinglePolicy`` under `single`.
  /// - Complexity: O(n).
  public mutating func expandAll(depth: Int? = nil, scrollTop: Double? = nil, viewportHeight: Double? = nil)
    throws(OutlineError) -> ExpansionResult
  {
    guard policy == .multiple else { throw .expandAllUnderSinglePolicy }
    return setAll(scrollTop: scrollTop, viewportHeight: viewportHeight) { [outline] p in
      depth.map { outline.depth(at: p) < $0 } ?? true ? true : nil
    }
  }

  /// Closes every group.
  /// - Complexity: O(n).
  public mutating func collapseAll(scrollTop: Double? = nil, viewportHeight: Double? = nil) -> ExpansionResult {
    setAll(scrollTop: scrollTop, viewportHeight: viewportHeight) { _ in false }
  }

  /// Replaces the whole expansion: `decide` gives each group's new state (`nil` keeps it), by position.
  private mutating func setAll(
    scrollTop: Double?, viewportHeight: Double?, _ decide: (Int) -> Bool?
  ) -> ExpansionResult {
    let oldVisible = visibilityFlags()
    // The item at the top of the viewport stays where it was on screen; when
    // it is hidden, its nearest visible group takes its place.
    let anchor = scrollTop.flatMap { visibleItem(atOffset: $0) }
    var result = ExpansionResult()
    var headerTurned = false
    // A local outline: reading `self.outline` while `self` changes reloads (and retains) it per call.
    let outline = outline
    for p in outline.groupPositions {
      if let open = decide(p), open != expanded[p] {
        expanded[p] = open
        result.updatedGroups.append(outline.id(at: p))
        headerTurned = headerTurned || oldVisible[p]
      }
    }
    if !result.updatedGroups.isEmpty {
      rebuildOpenChildren()
      rebuildIndex()
      result.changes = Self.changes(from: oldVisible, to: visibilityFlags())
    }
    if let scrollTop {
      var s = scrollTop
      if let anchor {
        var p: Int? = anchor.position
        while let q = p, !index.isVisible(q) { p = outline.parent(at: q) }
        if let q = p, let after = visibleItem(at: q) { s = max(0, scrollTop + after.top - anchor.top) }
      }
      if let viewportHeight { s = max(0, min(s, contentHeight - viewportHeight)) }
      result.scrollTop = s
      self.scrollTop = s
    }
    if !result.changes.isEmpty || headerTurned { version += 1 }
    return result
  }

  /// Visibility of every item from the expansion flags.
  /// - Complexity: O(n).
  func visibilityFlags() -> [Bool] {
    var visible = [Bool](repeating: false, count: outline.count)
    let shown = filter?.shown
    let parents = outline.parentPositions
    for p in 0..<outline.count {
      if let shown, !shown[p] { continue }
      let parent = Int(parents[p])
      if parent >= 0 {
        visible[p] = visible[parent] && expanded[parent]
      } else {
        visible[p] = true
      }
    }
    return visible
  }

  /// The shortest change list between two visibility sets over the same
  /// items, one of which contains the other or where blocks only appear or
  /// disappear: each run of vanished items is one delete, each run of new
  /// items one insert, in document order. An item shown in both but
  /// `replaced` (it shows otherwise now, as a row whose `isLastChild`
  /// turned) is deleted and inserted again in place: a run of them is one
  /// delete and one insert of the same range.
  static func changes(from old: [Bool], to new: [Bool], replaced: (Int) -> Bool = { _ in false }) -> [OutlineChange] {
    var changes: [OutlineChange] = []
    var cursor = 0  // visible index in the list as edited so far
    /// The run being gathered: a delete, an insert, or a replace (kind `.insert`, `replace` set).
    var pending: OutlineChange? = nil
    var pendingIsReplace = false
    func flush() {
      if let c = pending {
        if pendingIsReplace { changes.append(OutlineChange(.delete, start: c.start, count: c.count)) }
        changes.append(c)
      }
      pending = nil
      pendingIsReplace = false
    }
    // Items hidden before and after do not split a run.
    for p in old.indices where old[p] || new[p] {
      switch (old[p], new[p]) {
      case (true, false):
        if pending?.kind == .delete {
          pending!.count += 1
        } else {
          flush()
          pending = OutlineChange(.delete, start: cursor, count: 1)
        }
      case (false, true):
        if pending?.kind == .insert && !pendingIsReplace {
          pending!.count += 1
        } else {
          flush()
          pending = OutlineChange(.insert, start: cursor, count: 1)
        }
        cursor += 1
      default:
        if replaced(p) {
          if pendingIsReplace {
            pending!.count += 1
          } else {
            flush()
            pending = OutlineChange(.insert, start: cursor, count: 1)
            pendingIsReplace = true
          }
        } else {
          flush()
        }
        cursor += 1
      }
    }
    flush()
    return changes
  }

  // MARK: Layout

  /// Applies the layout fields given by the host (`setLayout`) over the current ones.
  /// - Returns: whether the effective layout changed (then heights are measured again).
  /// - Complexity: O(n) plus the text measured when the layout changed, else O(1).
  @discardableResult
  public mutating func setLayout(_ overrides: LayoutOverrides) -> Bool {
    let merged = hostLayout.merged(with: overrides)
    let newLayout = Layout().applying(outline.layout).applying(merged)
    hostLayout = merged
    guard newLayout != layout else { return false }
    layout = newLayout
    lineBreaker = lineBreakers.lineBreaker(for: newLayout)
    rebuildIndex(heights: measuredHeights())
    version += 1
    return true
  }

  /// Every item's height under the current layout, measured.
  private func measuredHeights() -> [Double] {
    let rowHeights = RowHeights(layout: layout, lineBreaker: lineBreaker)
    if case .fixed(let header) = layout.headerHeight, case .fixed(let row) = layout.rowHeight {
      return (0..<outline.count).map { outline.isGroup(at: $0) ? header : row }
    }
    return (0..<outline.count).map { rowHeights.height(at: $0, in: outline) }
  }

  // MARK: Saved expansion

  /// The user's expansion of every group, by id.
  /// - Complexity: O(n).
  public var expansionByID: [String: Bool] {
    let user = filter?.userExpanded ?? expanded
    var result: [String: Bool] = [:]
    for p in outline.groupPositions { result[outline.id(at: p)] = user[p] }
    return result
  }

  /// Takes a saved expansion: the groups it names take its state (it wins
  /// over the file's `expanded`; an id named twice takes its last state),
  /// ids it does not know or that name rows are ignored, other groups keep
  /// theirs; under `single` the first open sibling in document order wins.
  /// `version` goes to `after + 1` (a re-open never goes back).
  /// - Complexity: O(n + ids): each id is looked up in the outline's id table,
  ///   no dictionary is built.
  public mutating func restoreExpansion(
    _ states: some Sequence<(id: String, expanded: Bool)>, after previousVersion: Int
  ) {
    let query = filter?.query
    if query != nil { clearFilter() }
    apply(states)
    normalizeSingleSilently()
    if let query { applyFilter(query) } else { rebuildIndex() }
    version = max(version, previousVersion + 1)
  }

  /// Restores a user's view: the expansion of groups by id (see
  /// ``restoreExpansion(_:after:)``), the focus by id (dropped when the id
  /// is not in the outline) and the scroll offset.
  /// - Complexity: O(n + ids).
  public mutating func restoreView(
    expansion states: some Sequence<(id: String, expanded: Bool)>, focus id: String?, scrollTop: Double?,
    after previousVersion: Int
  ) {
    restoreExpansion(states, after: previousVersion)
    setFocus(id.flatMap { outline.position(of: $0) })
    self.scrollTop = scrollTop
  }

  // MARK: New text

  /// Replaces the structure with a new version of the file: the user's
  /// expansion of ids that already existed wins over the file's `expanded`;
  /// new ids take the file's value.
  /// - Returns: the change list from the old visible list to the new one
  ///   (the delete/insert pair between their common prefix and suffix).
  /// - Complexity: O(n) plus the text measured.
  public mutating func replace(with newOutline: Outline) -> [OutlineChange] {
    let old = self
    let wasExpanded = expansionByID
    let query = filter?.query
    let focusID = focus.map { outline.id(at: $0) }
    filter = nil
    foldedTexts = nil
    sourceIndex = nil
    outline = newOutline
    layout = Layout().applying(outline.layout).applying(hostLayout)
    if layout != old.layout { lineBreaker = lineBreakers.lineBreaker(for: layout) }
    expanded = [Bool](repeating: false, count: outline.count)
    for p in newOutline.groupPositions {
      expanded[p] = wasExpanded[newOutline.id(at: p)] ?? newOutline.expandedInFile(at: p) ?? false
    }
    warnings = fileWarnings()
    normalizeSingleSilently()
    let newHeights = measuredHeights()
    // The focus follows its id, and is dropped when the id left the file.
    focus = focusID.flatMap { outline.position(of: $0) }
    if let query { applyFilter(query, heights: newHeights) } else { rebuildIndex(heights: newHeights) }
    // Only what a host is shown counts (PROTOCOL §8: a write that changes
    // nothing observable keeps the version): the visible list item by item,
    // and the layout. A hidden item's text or a group's `expanded` in the
    // file under the user's own state are not shown.
    let changes = Self.diff(old, self)
    if !changes.isEmpty || old.layout != layout {
      version = old.version + 1
    }
    return changes
  }

  /// The delete/insert pair between the common prefix and suffix of two
  /// visible lists, comparing items by what a host is shown of each
  /// (see ``shownSame(_:_:_:_:)``).
  private static func diff(_ a: OutlineState, _ b: OutlineState) -> [OutlineChange] {
    let x = a.visibleItems(start: 0, count: a.total)
    let y = b.visibleItems(start: 0, count: b.total)
    func same(_ u: VisibleItem, _ v: VisibleItem) -> Bool { shownSame(a, u, b, v) }
    var prefix = 0
    while prefix < x.count, prefix < y.count, same(x[prefix], y[prefix]) { prefix += 1 }
    var suffix = 0
    while suffix < x.count - prefix, suffix < y.count - prefix,
      same(x[x.count - 1 - suffix], y[y.count - 1 - suffix])
    {
      suffix += 1
    }
    var changes: [OutlineChange] = []
    let deleted = x.count - prefix - suffix
    let inserted = y.count - prefix - suffix
    if deleted > 0 { changes.append(OutlineChange(.delete, start: prefix, count: deleted)) }
    if inserted > 0 { changes.append(OutlineChange(.insert, start: prefix, count: inserted)) }
    return changes
  }

  /// Whether visible item `u` of `a` and `v` of `b` show the same in a
  /// `visibleRows` answer: height, `expanded`, `isLastChild` as shown, and
  /// the item's own fields. `top`, `index` and `parent` follow from the list
  /// (an item's parent is the nearest item before it one level up).
  private static func shownSame(_ a: OutlineState, _ u: VisibleItem, _ b: OutlineState, _ v: VisibleItem) -> Bool {
    u.height == v.height && u.expanded == v.expanded && a.isLastChild(u.position) == b.isLastChild(v.position)
      && Outline.sameItem(a.outline, u.position, b.outline, v.position, positional: false)
  }

  // MARK: Policy `single`

  private func fileWarnings() -> [Diagnostic] {
    guard policy == .single else { return [] }
    var seen = Set<Int>()
    var warnings: [Diagnostic] = []
    for p in outline.groupPositions where outline.expandedInFile(at: p) == true {
      let parent = Int(outline.parentPositions[p])
      if seen.contains(parent) {
        // The group's first line: its whole mapping would mark its rows too.
        let source = outline.source(at: p)
        let end =
          source.end.line == source.start.line ? source.end : SourcePosition(line: source.start.line, column: .max)
        warnings.append(
          Diagnostic(
            range: SourceRange(start: source.start, end: end), severity: .warning, code: "single-policy",
            message: "group \"\(outline.id(at: p))\" is expanded, but a sibling is already open under expansion: single"
          ))
      } else {
        seen.insert(parent)
      }
    }
    return warnings
  }

  mutating func normalizeSingleSilently() {
    guard policy == .single, filter == nil else {
      openChild = [:]
      return
    }
    // The first open sibling wins. Read once: `self` changes here.
    let parents = outline.parentPositions
    var seen = Set<Int32>()
    for p in outline.groupPositions where expanded[p] && !seen.insert(parents[p]).inserted {
      expanded[p] = false
    }
    rebuildOpenChildren()
  }

  mutating func rebuildOpenChildren() {
    openChild = [:]
    guard policy == .single, filter == nil else { return }
    let parents = outline.parentPositions
    for p in outline.groupPositions where expanded[p] {
      openChild[Int(parents[p])] = p
    }
  }

  /// Rebuilds the index from the flags and `heights`, or the heights it holds when `nil`.
  /// - Complexity: O(n).
  mutating func rebuildIndex(heights newHeights: [Double]? = nil) {
    // Collapsed ancestors, plus one for an item the filter hides.
    var above = [Int32](repeating: 0, count: outline.count)
    let parents = outline.parentPositions
    for p in 0..<outline.count {
      let parent = Int(parents[p])
      if parent >= 0 { above[p] = above[parent] + (expanded[parent] ? 0 : 1) }
    }
    if let shown = filter?.shown {
      for p in above.indices where !shown[p] { above[p] += 1 }
    }
    // Drop the old index first: a big outline would otherwise hold two at once.
    let heights = newHeights ?? index.heights
    index = VisibilityIndex(covers: [], heights: [])
    // Hand the heights over without keeping a second reference, so the index owns them uniquely.
    index = VisibilityIndex(covers: above, heights: consume heights)
  }

  /// Bytes held by the visible-list index and the per-item state arrays.
  public var indexMemoryFootprint: Int {
    index.memoryFootprint + expanded.capacity * MemoryLayout<Bool>.stride
  }
}
