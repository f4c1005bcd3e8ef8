/// What ``OutlineState/reveal(_:scrollTop:viewportHeight:)`` did.
public struct RevealResult: Sendable, Equatable {
  /// The groups opened and closed, and the changes to the visible list; its
  /// `scrollTop` is set when a viewport was given.
  public var expansion: ExpansionResult
  /// The item's index in the visible list, or `nil` when a filter hides it.
  public var index: Int?
}

extension OutlineState {
  /// Shows the item at `position` (PROTOCOL §9 `revealItem`): opens its
  /// closed ancestors (not the item itself); under `single`, each ancestor
  /// opened closes its open siblings, as a toggle would. While filtered, an
  /// item the filter hides is not revealed: nothing changes and the index is
  /// `nil`; one it shows may have an ancestor closed by a toggle made while
  /// filtered, which is opened.
  ///
  /// The change list is the shortest: the ancestors inside the outermost
  /// closed one are hidden until it opens, so they are opened first (no row
  /// moves), and that one last: one delete for its open sibling under
  /// `single`, one insert for its new subtree.
  ///
  /// - Parameters:
  ///   - position: the item's position; traps when out of range.
  ///   - scrollTop: with `viewportHeight`, the host's viewport `[scrollTop,
  ///     scrollTop + viewportHeight)`: the result's `scrollTop` is then the
  ///     given one when the item is already within it, else the smallest
  ///     move that brings the item's whole row into view (its top, when it
  ///     is taller than the viewport). It is stored as the view's scroll offset.
  ///   - viewportHeight: see `scrollTop`; one without the other is ignored.
  /// - Complexity: O(depth · log n) under `multiple`; while filtered under
  ///   `single`, plus the siblings of each ancestor opened.
  public mutating func reveal(_ position: Int, scrollTop: Double? = nil, viewportHeight: Double? = nil)
    -> RevealResult
  {
    precondition(position >= 0 && position < outline.count, "no item at position \(position)")
    var result = ExpansionResult()
    let viewport = scrollTop.flatMap { top in viewportHeight.map { (top: top, height: $0) } }
    guard filter?.shown[position] != false else {
      if let viewport {
        result.scrollTop = viewport.top
        self.scrollTop = viewport.top
      }
      return RevealResult(expansion: result, index: nil)
    }
    var closed: [Int] = []
    var ancestor = outline.parent(at: position)
    while let g = ancestor {
      if !expanded[g] { closed.append(g) }
      ancestor = outline.parent(at: g)
    }
    // Innermost first: only the last, the outermost closed ancestor, is visible.
    for g in closed {
      closeOpenSiblings(of: g, into: &result)
      setExpanded(g, true, into: &result)
    }
    // The outermost closed ancestor's header is visible: its arrow turned.
    if !closed.isEmpty { version += 1 }
    let shown = visibleItem(at: position)
    if let viewport, let shown {
      let s = Self.scrollTop(viewport.top, viewportHeight: viewport.height, showing: shown.top, height: shown.height)
      result.scrollTop = s
      self.scrollTop = s
    }
    return RevealResult(expansion: result, index: shown?.index)
  }

  /// The scroll offset after the smallest move of a viewport at `scrollTop`,
  /// `viewportHeight` tall, that shows `[top, top + height)` whole, or its
  /// first `viewportHeight` when it is taller; `scrollTop` itself when it
  /// already does.
  static func scrollTop(_ scrollTop: Double, viewportHeight: Double, showing top: Double, height: Double) -> Double {
    let extent = min(height, viewportHeight)
    if top >= scrollTop && top + extent <= scrollTop + viewportHeight { return scrollTop }
    if top < scrollTop { return top }
    return top + extent - viewportHeight
  }
}
