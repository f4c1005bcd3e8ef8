/// Reading the items of an ``Outline``: whole ``OutlineItem`` values through
/// ``Outline/items``, or one field at a time. A field read is O(1) and
/// allocates nothing, except the texts, which make a `String` from the arena's
/// bytes (no allocation up to 15 bytes). Positions must be in `0 ..< count`.
extension Outline {
  /// The items in document order, each made on demand as an ``OutlineItem``.
  /// Materialising an item makes its strings: loops over many items read
  /// the fields they need instead (``kind(at:)``, ``end(at:)`` …).
  public var items: Items { Items(outline: self) }

  /// The items of an outline as a random-access collection of ``OutlineItem``
  /// values, indexed by item position.
  public struct Items: RandomAccessCollection, Sendable, Equatable {
    let outline: Outline

    /// Always 0.
    public var startIndex: Int { 0 }
    /// The number of items.
    public var endIndex: Int { outline.count }

    /// The item at `position`, made from the compact storage.
    /// - Complexity: O(length of its texts).
    public subscript(position: Int) -> OutlineItem { outline.item(at: position) }

    /// Whether the two lists hold the same items, field by field (texts compare as bytes).
    /// - Complexity: O(n + text bytes); allocates nothing.
    public static func == (a: Items, b: Items) -> Bool {
      guard a.count == b.count else { return false }
      for p in 0..<a.count where !Outline.sameItem(a.outline, p, b.outline, p, positional: true) { return false }
      return true
    }
  }

  /// The item at `position` as a value (its strings made from the arena).
  /// - Complexity: O(length of its texts).
  public func item(at p: Int) -> OutlineItem {
    OutlineItem(
      kind: kind(at: p), id: id(at: p), title: title(at: p), detail: detail(at: p), icon: icon(at: p),
      badge: badge(at: p), active: active(at: p), emphasis: emphasis(at: p), data: data(at: p), depth: depth(at: p),
      parent: parent(at: p), end: end(at: p), isLastChild: lastChildFlags[p], childCount: childCount(at: p),
      rowCount: rowCount(at: p), activeCount: activeCount(at: p), expandedInFile: expandedInFile(at: p),
      source: source(at: p))
  }

  /// Whether the item at `p` is a group or a row. O(1).
  public func kind(at p: Int) -> OutlineItem.Kind { flags[p] & Flag.group != 0 ? .group : .row }
  /// Whether the item at `p` is a group. O(1).
  public func isGroup(at p: Int) -> Bool { flags[p] & Flag.group != 0 }
  /// The depth of the item at `p`: 0 for a top-level group. O(1).
  public func depth(at p: Int) -> Int {
    let g = groupNumbers[p]
    if g >= 0 { return Int(groupDepths[Int(g)]) }
    return Int(groupDepths[Int(groupNumbers[Int(parentPositions[p])])]) + 1
  }
  /// The position of the parent of the item at `p`; `nil` for a top-level group. O(1).
  public func parent(at p: Int) -> Int? {
    let q = parentPositions[p]
    return q < 0 ? nil : Int(q)
  }
  /// One past the last position of the subtree of the item at `p` (`p + 1` for a row). O(1).
  public func end(at p: Int) -> Int {
    let g = groupNumbers[p]
    return g >= 0 ? Int(groupEnds[Int(g)]) : p + 1
  }
  /// Whether the item at `p` is the last child of its parent. O(1).
  public func isLastChild(at p: Int) -> Bool { lastChildFlags[p] }
  /// Groups: direct subgroups + direct rows; rows: 0. O(1).
  public func childCount(at p: Int) -> Int {
    let g = groupNumbers[p]
    return g >= 0 ? Int(groupChildCounts[Int(g)]) : 0
  }
  /// Groups: rows in the whole subtree; rows: 0. O(1).
  public func rowCount(at p: Int) -> Int {
    let g = groupNumbers[p]
    return g >= 0 ? Int(groupRowCounts[Int(g)]) : 0
  }
  /// Groups: active rows in the whole subtree; rows: 0. O(1).
  public func activeCount(at p: Int) -> Int {
    let g = groupNumbers[p]
    return g >= 0 ? Int(groupActiveCounts[Int(g)]) : 0
  }
  /// Rows: `active:`; groups: `true`. O(1).
  public func active(at p: Int) -> Bool { flags[p] & Flag.active != 0 }
  /// Rows: `emphasis:`; groups: `false`. O(1).
  public func emphasis(at p: Int) -> Bool { flags[p] & Flag.emphasis != 0 }
  /// Groups: the file's `expanded:`, if it said; rows: `nil`. O(1).
  public func expandedInFile(at p: Int) -> Bool? {
    let f = flags[p]
    return f & Flag.expandedKnown == 0 ? nil : f & Flag.expandedOpen != 0
  }
  /// Where the item at `p` is defined in the source. O(1).
  public func source(at p: Int) -> SourceRange {
    let s = sources[p]
    if s.line < 0 { return sourceOverflow[Int(s.column)] }
    return SourceRange(
      start: SourcePosition(line: Int(s.line), column: Int(s.column)),
      end: SourcePosition(line: Int(s.line), column: Int(s.column) + Int(s.length)))
  }
  /// Rows: the `data:` value, if any. O(1) on average.
  public func data(at p: Int) -> OpaqueValue? {
    flags[p] & Flag.hasData == 0 ? nil : dataByPosition[p]
  }

  /// The id of the item at `p`. O(length).
  public func id(at p: Int) -> String { string(spans[p].idStart, spans[p].idLength)! }
  /// The title of the item at `p`. O(length).
  public func title(at p: Int) -> String { string(spans[p].textStart, spans[p].titleLength)! }
  /// Rows: the detail of the item at `p`, if any. O(length).
  public func detail(at p: Int) -> String? { string(spans[p].detailStart, spans[p].detailLength) }
  /// Rows: the icon of the item at `p`, if any. O(length).
  public func icon(at p: Int) -> String? {
    isGroup(at: p) ? nil : string(spans[p].extraStart, spans[p].extraLength)
  }
  /// Groups: the badge of the item at `p`, if any. O(length).
  public func badge(at p: Int) -> String? {
    isGroup(at: p) ? string(spans[p].extraStart, spans[p].extraLength) : nil
  }

  /// The UTF-8 bytes of the title of the item at `p`, lent to `body`. O(1) plus `body`.
  public func withTitleUTF8<R>(at p: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    try arena.withUnsafeBufferPointer { a in try body(Self.slice(a, spans[p].textStart, spans[p].titleLength)) }
  }

  /// The text at `start` of `length` bytes; `nil` for length -1.
  func string(_ start: Int32, _ length: Int32) -> String? {
    guard length >= 0 else { return nil }
    return arena.withUnsafeBufferPointer { a in String(decoding: Self.slice(a, start, length), as: UTF8.self) }
  }

  /// Whether item `p` of `a` and item `q` of `b` show the same: every field,
  /// or every field but the positional ones (parent, end, source) when
  /// `positional` is false. Texts compare as bytes; nothing is allocated.
  static func sameItem(_ a: Outline, _ p: Int, _ b: Outline, _ q: Int, positional: Bool) -> Bool {
    guard a.flags[p] == b.flags[q], a.lastChildFlags[p] == b.lastChildFlags[q], a.depth(at: p) == b.depth(at: q),
      a.childCount(at: p) == b.childCount(at: q), a.rowCount(at: p) == b.rowCount(at: q),
      a.activeCount(at: p) == b.activeCount(at: q), a.data(at: p) == b.data(at: q)
    else { return false }
    if positional {
      guard a.parent(at: p) == b.parent(at: q), a.end(at: p) == b.end(at: q), a.source(at: p) == b.source(at: q)
      else { return false }
    }
    let s = a.spans[p]
    let t = b.spans[q]
    guard s.idLength == t.idLength, s.titleLength == t.titleLength, s.detailLength == t.detailLength,
      s.extraLength == t.extraLength
    else { return false }
    return a.arena.withUnsafeBufferPointer { x in
      b.arena.withUnsafeBufferPointer { y in
        slice(x, s.idStart, s.idLength).elementsEqual(slice(y, t.idStart, t.idLength))
          && slice(x, s.textStart, s.titleLength).elementsEqual(slice(y, t.textStart, t.titleLength))
          && slice(x, s.detailStart, s.detailLength).elementsEqual(slice(y, t.detailStart, t.detailLength))
          && slice(x, s.extraStart, s.extraLength).elementsEqual(slice(y, t.extraStart, t.extraLength))
      }
    }
  }
}
