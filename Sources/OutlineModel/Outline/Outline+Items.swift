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

  /// The item at position `p` as a value (its strings made from the arena).
  /// - Complexity: O(length of its texts).
  public func item(at p: Int) -> OutlineItem {
    OutlineItem(
      kind: kind(at: p), id: id(at: p), title: title(at: p), detail: detail(at: p), icon: icon(at: p),
      badge: badge(at: p), active: active(at: p), emphasis: emphasis(at: p), data: data(at: p), depth: depth(at: p),
      parent: parent(at: p), end: end(at: p), isLastChild: isLastChild(at: p), childCount: childCount(at: p),
      rowCount: rowCount(at: p), activeCount: activeCount(at: p), expandedInFile: expandedInFile(at: p),
      source: source(at: p))
  }

  /// Whether the item at `p` is a group or a row. O(1).
  public func kind(at p: Int) -> OutlineItem.Kind { storage.table.kind(at: p) }
  /// Whether the item at `p` is a group. O(1).
  public func isGroup(at p: Int) -> Bool { storage.table.isGroup(at: p) }
  /// The depth of the item at `p`: 0 for a top-level group. O(1).
  public func depth(at p: Int) -> Int { storage.table.depth(at: p) }
  /// The position of the parent of the item at `p`; `nil` for a top-level group. O(1).
  public func parent(at p: Int) -> Int? { storage.table.parent(at: p) }
  /// One past the last position of the subtree of the item at `p` (`p + 1` for a row). O(1).
  public func end(at p: Int) -> Int { storage.table.end(at: p) }
  /// Whether the item at `p` is the last child of its parent. O(1).
  public func isLastChild(at p: Int) -> Bool { storage.table.lastChildFlags[p] }
  /// Groups: direct subgroups + direct rows; rows: 0. O(1).
  public func childCount(at p: Int) -> Int { storage.table.childCount(at: p) }
  /// Groups: rows in the whole subtree; rows: 0. O(1).
  public func rowCount(at p: Int) -> Int { storage.table.rowCount(at: p) }
  /// Groups: active rows in the whole subtree; rows: 0. O(1).
  public func activeCount(at p: Int) -> Int { storage.table.activeCount(at: p) }
  /// Rows: `active:`; groups: `true`. O(1).
  public func active(at p: Int) -> Bool { storage.table.active(at: p) }
  /// Rows: `emphasis:`; groups: `false`. O(1).
  public func emphasis(at p: Int) -> Bool { storage.table.emphasis(at: p) }
  /// Groups: the file's `expanded:`, if it said; rows: `nil`. O(1).
  public func expandedInFile(at p: Int) -> Bool? { storage.table.expandedInFile(at: p) }
  /// Where the item at `p` is defined in the source. O(1).
  public func source(at p: Int) -> SourceRange { storage.table.source(at: p) }
  /// Rows: the `data:` value, if any. O(1) on average.
  public func data(at p: Int) -> OpaqueValue? { storage.table.data(at: p) }
  /// The id of the item at `p`. O(length).
  public func id(at p: Int) -> String { storage.table.id(at: p) }
  /// The title of the item at `p`. O(length).
  public func title(at p: Int) -> String { storage.table.title(at: p) }
  /// Rows: the detail of the item at `p`, if any. O(length).
  public func detail(at p: Int) -> String? { storage.table.detail(at: p) }
  /// Rows: the icon of the item at `p`, if any. O(length).
  public func icon(at p: Int) -> String? { storage.table.icon(at: p) }
  /// Groups: the badge of the item at `p`, if any. O(length).
  public func badge(at p: Int) -> String? { storage.table.badge(at: p) }

  /// The UTF-8 bytes of the id of the item at `p`, lent to `body`. O(1) plus `body`.
  public func withIDUTF8<R>(at p: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    try storage.table.withIDUTF8(at: p, body)
  }

  /// The UTF-8 bytes of the title of the item at `p`, lent to `body`. O(1) plus `body`.
  public func withTitleUTF8<R>(at p: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    try storage.table.withTitleUTF8(at: p, body)
  }

  /// The UTF-8 bytes of the icon (a row) or the badge (a group) of the item at `p`
  /// (`nil` when absent), lent to `body`. O(1) plus `body`.
  public func withIconOrBadgeUTF8<R>(at p: Int, _ body: (UnsafeBufferPointer<UInt8>?) throws -> R) rethrows -> R {
    try storage.table.withExtraUTF8(at: p, body)
  }

  /// The UTF-8 bytes of the detail of the item at `p` (`nil` when absent), lent to `body`. O(1) plus `body`.
  public func withDetailUTF8<R>(at p: Int, _ body: (UnsafeBufferPointer<UInt8>?) throws -> R) rethrows -> R {
    try storage.table.withDetailUTF8(at: p, body)
  }

  /// Whether item `p` of `a` and item `q` of `b` show the same: every field,
  /// or every field but the positional ones (parent, end, source) when
  /// `positional` is false. Texts compare as bytes; nothing is allocated.
  static func sameItem(_ a: Outline, _ p: Int, _ b: Outline, _ q: Int, positional: Bool) -> Bool {
    OutlineItemTable.sameItem(a.storage.table, p, b.storage.table, q, positional: positional)
  }
}
