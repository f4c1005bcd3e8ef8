/// A key of the WAI-ARIA tree pattern (PROTOCOL §6 `navigate`).
public enum NavigationKey: Sendable, Equatable {
  /// Next / previous visible item.
  case down, up
  /// Collapsed group: expand. Expanded group: its first child. Row: nothing.
  case right
  /// Expanded group: collapse. Otherwise: the parent group.
  case left
  /// First / last visible item.
  case home, end
  /// By the page height.
  case pageDown, pageUp
  /// Expand every sibling group of the item (the `*` key).
  case expandSiblings
  /// The next visible item whose title starts with the typed text, wrapping.
  case typeAhead(String)
}

/// Where `navigate` moved the focus, and what it changed.
public struct NavigationResult: Sendable, Equatable {
  /// The new focus, an item position.
  public var focus: Int
  /// Its index in the visible list.
  public var index: Int
  /// Set when the key changed the expansion.
  public var expansion: ExpansionResult?
  /// The group `right` or `left` opened or closed: the item the key acted
  /// on, which is the nearest visible ancestor when `from` is hidden; `nil`
  /// when no single group was toggled.
  public var toggled: Int?
}

extension OutlineState {
  /// Moves the focus from `position` by `key` (PROTOCOL §6): down on the last
  /// item, up on the first and left on a top-level item stay put. A hidden
  /// `position` acts from its nearest visible ancestor.
  /// - Parameter pageHeight: the height the page keys move by (the last
  ///   viewport's, else `contentHeight`).
  /// - Throws: ``OutlineError/notAGroup`` for a position out of range;
  ///   ``OutlineError/expandAllUnderSinglePolicy`` for `expandSiblings` under `single`.
  /// - Complexity: O(log n) for moves, O(children · log n) for
  ///   `expandSiblings`, O(n) at worst for type-ahead.
  public mutating func navigate(from position: Int, key: NavigationKey, pageHeight: Double? = nil)
    throws(OutlineError) -> NavigationResult
  {
    guard position >= 0, position < outline.count, total > 0 else { throw .notAGroup }
    var p: Int? = position
    while let q = p, !isVisible(q) { p = outline.parent(at: q) }
    guard let start = p, let from = visibleItem(at: start) else { throw .notAGroup }
    let isGroup = outline.isGroup(at: from.position)
    var target = from
    var expansion: ExpansionResult? = nil
    var toggled: Int? = nil
    switch key {
    case .down:
      target = visibleItem(atIndex: from.index + 1) ?? from
    case .up:
      target = visibleItem(atIndex: from.index - 1) ?? from
    case .right:
      if isGroup && !expanded[from.position] {
        expansion = try toggle(from.position, expanded: true)
        toggled = from.position
      } else if isGroup, let next = visibleItem(atIndex: from.index + 1),
        outline.parent(at: next.position) == from.position
      {
        target = next
      }
    case .left:
      if isGroup && expanded[from.position] {
        expansion = try toggle(from.position, expanded: false)
        toggled = from.position
      } else if let parent = outline.parent(at: from.position), let v = visibleItem(at: parent) {
        target = v
      }
    case .home:
      target = visibleItem(atIndex: 0)!
    case .end:
      target = visibleItem(atIndex: total - 1)!
    case .pageDown, .pageUp:
      let page = pageHeight ?? contentHeight
      let down = key == .pageDown
      if let hit = visibleItem(atOffset: down ? from.top + page : from.top - page) {
        target = hit
      }
      // Move at least one item.
      if down && target.index <= from.index { target = visibleItem(atIndex: from.index + 1) ?? from }
      if !down && target.index >= from.index { target = visibleItem(atIndex: from.index - 1) ?? from }
    case .expandSiblings:
      guard policy == .multiple else { throw .expandAllUnderSinglePolicy }
      var r = ExpansionResult()
      for g in outline.subgroups(of: outline.parent(at: from.position)) where !expanded[g] && filter?.shown[g] != false
      {
        setExpanded(g, true, into: &r)
      }
      if !r.changes.isEmpty { version += 1 }
      expansion = r
    case .typeAhead(let text):
      target = typeAhead(text, from: from) ?? from
    }
    // The expansion may have moved the focus's index.
    let final = visibleItem(at: target.position) ?? target
    focus = final.position
    return NavigationResult(focus: final.position, index: final.index, expansion: expansion, toggled: toggled)
  }

  /// The next visible item whose case-folded title starts with `text`: one
  /// character searches after `from`, several from `from` itself; wraps.
  private func typeAhead(_ text: String, from: VisibleItem) -> VisibleItem? {
    let prefix = CaseFolding.fold(text)
    guard !prefix.isEmpty, total > 0 else { return nil }
    let first = text.count == 1 ? from.index + 1 : from.index
    for k in 0..<total {
      let i = (first + k) % total
      guard let v = visibleItem(atIndex: i) else { continue }
      if CaseFolding.fold(outline.title(at: v.position)).hasPrefix(prefix) { return v }
    }
    return nil
  }

  // MARK: View state

  /// The ids of the groups the user has open (also while filtered), in document order.
  public var expandedIDs: [String] {
    let user = filter?.userExpanded ?? expanded
    return outline.groupPositions.filter { user[$0] }.map { outline.id(at: $0) }
  }

  /// Replaces the user's expansion (PROTOCOL §6 `setViewState`): the listed
  /// groups open, all others closed; unknown ids are ignored; under `single`
  /// the first listed sibling in document order wins. While filtered, the
  /// saved expansion changes and the filtered view stays.
  /// - Complexity: O(n).
  public mutating func setViewState(expanded ids: [String], focus focusID: String?, scrollTop: Double?)
    -> ExpansionResult
  {
    let open = Set(ids)
    // A local outline: reading `self.outline` while `self` changes reloads (and retains) it per call.
    let outline = outline
    var user = [Bool](repeating: false, count: outline.count)
    for p in outline.groupPositions where open.contains(outline.id(at: p)) { user[p] = true }
    if policy == .single {
      var seen = Set<Int>()
      for p in outline.groupPositions where user[p] {
        if !seen.insert(Int(outline.parentPositions[p])).inserted { user[p] = false }
      }
    }
    var result = ExpansionResult()
    if filter != nil {
      filter!.userExpanded = user
    } else {
      let oldVisible = visibilityFlags()
      // A visible header whose arrow turns is a change to the visible list even when no row moves.
      var headerTurned = false
      for p in outline.groupPositions where expanded[p] != user[p] {
        result.updatedGroups.append(outline.id(at: p))
        headerTurned = headerTurned || oldVisible[p]
      }
      expanded = user
      rebuildOpenChildren()
      rebuildIndex()
      result.changes = Self.changes(from: oldVisible, to: visibilityFlags())
      if !result.changes.isEmpty || headerTurned { version += 1 }
    }
    if let focusID, let p = outline.position(of: focusID) { focus = p }
    if let scrollTop {
      // A scroll offset is never negative (as an anchored toggle's).
      self.scrollTop = max(0, scrollTop)
      result.scrollTop = max(0, scrollTop)
    }
    return result
  }

  /// Sets the focus without moving anything (a restored view state).
  public mutating func setFocus(_ position: Int?) {
    focus = position.flatMap { $0 >= 0 && $0 < outline.count ? $0 : nil }
  }
}
