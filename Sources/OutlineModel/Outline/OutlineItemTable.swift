/// The compact storage of an ``Outline``'s items (see ``Outline`` for the
/// layout): per-item arrays in document order, per-group tables indexed by
/// group number, the UTF-8 text arena, the id table. Filled by
/// ``OutlineBuilder``, then shared read-only through a ``Box``, so that
/// copying an ``Outline`` retains one reference, not a dozen arrays.
struct OutlineItemTable: Sendable {
  /// Item positions of the top-level groups.
  var roots: [Int] = []
  /// Item positions of every group, in document order.
  var groupPositions: [Int] = []
  /// Per item, the position of its parent, or -1: the compact form of
  /// ``OutlineItem/parent`` for the loops that visit every item.
  var parentPositions: [Int32] = []
  /// Per item, ``OutlineItem/isLastChild``, compact.
  var lastChildFlags: [Bool] = []

  /// Per item: ``Flag`` bits.
  var flags: [UInt8] = []
  /// Per item: the group number (an index of the `group…` tables) of a group, -1 for a row.
  var groupNumbers: [Int32] = []
  /// Per item: where it is defined.
  var sources: [PackedSource] = []
  /// Per item: where its texts are in ``arena``.
  var spans: [TextSpans] = []
  /// The UTF-8 bytes of every id, title, detail, icon and badge.
  var arena: [UInt8] = []
  /// Source ranges that do not fit a ``PackedSource``.
  var sourceOverflow: [SourceRange] = []
  /// `data:` values by item position (few rows have one).
  var dataByPosition: [Int: OpaqueValue] = [:]
  /// Per group number: one past the last position of its subtree.
  var groupEnds: [Int32] = []
  /// Per group number: its depth.
  var groupDepths: [Int32] = []
  /// Per group number: direct subgroups + direct rows.
  var groupChildCounts: [Int32] = []
  /// Per group number: rows in its subtree.
  var groupRowCounts: [Int32] = []
  /// Per group number: active rows in its subtree.
  var groupActiveCounts: [Int32] = []
  /// Id → position.
  var ids = IDTable(capacityFor: 0)

  /// The bits of ``flags``.
  enum Flag {
    static let group: UInt8 = 1
    static let active: UInt8 = 2
    static let emphasis: UInt8 = 4
    static let expandedKnown: UInt8 = 8
    static let expandedOpen: UInt8 = 16
    static let hasData: UInt8 = 32
  }

  /// The number of items.
  var count: Int { flags.count }

  /// The item position of the id whose UTF-8 bytes are `key`, or `nil`.
  func position(ofUTF8 key: UnsafeBufferPointer<UInt8>) -> Int? {
    find(key, in: ids).position.map { Int($0) }
  }

  /// Looks `key` up in `ids`, a table of positions of this table's items
  /// keyed by their id bytes: the item found, or the empty slot for it.
  func find(_ key: UnsafeBufferPointer<UInt8>, in ids: IDTable) -> (position: Int32?, slot: Int) {
    arena.withUnsafeBufferPointer { a in
      spans.withUnsafeBufferPointer { s in
        ids.find(key) { p in Self.slice(a, s[Int(p)].idStart, s[Int(p)].idLength) }
      }
    }
  }

  /// Bytes in use by the item table: the per-item and per-group arrays, the
  /// id table and the side tables, without the text arena (see ``textBytes``).
  /// Capacity reserved beyond the counts is not included: it costs address
  /// space, not memory, until written.
  var itemTableBytes: Int {
    flags.count + lastChildFlags.count + 4 * (parentPositions.count + groupNumbers.count)
      + MemoryLayout<PackedSource>.stride * sources.count + MemoryLayout<TextSpans>.stride * spans.count
      + 8 * (roots.count + groupPositions.count)
      + 4
      * (groupEnds.count + groupDepths.count + groupChildCounts.count + groupRowCounts.count
        + groupActiveCounts.count)
      + ids.memoryFootprint + MemoryLayout<SourceRange>.stride * sourceOverflow.count
      + dataByPosition.capacity * (8 + MemoryLayout<OpaqueValue>.stride)
  }

  /// Bytes in use in the text arena (the UTF-8 of every id, title, detail, icon and badge).
  var textBytes: Int { arena.count }

  static func slice(_ a: UnsafeBufferPointer<UInt8>, _ start: Int32, _ length: Int32) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(rebasing: a[Int(start)..<Int(start) + Int(max(length, 0))])
  }

  /// Whether the item at `p` is a group or a row. O(1).
  func kind(at p: Int) -> OutlineItem.Kind { flags[p] & Flag.group != 0 ? .group : .row }
  /// Whether the item at `p` is a group. O(1).
  func isGroup(at p: Int) -> Bool { flags[p] & Flag.group != 0 }
  /// The depth of the item at `p`: 0 for a top-level group. O(1).
  func depth(at p: Int) -> Int {
    let g = groupNumbers[p]
    if g >= 0 { return Int(groupDepths[Int(g)]) }
    return Int(groupDepths[Int(groupNumbers[Int(parentPositions[p])])]) + 1
  }
  /// The position of the parent of the item at `p`; `nil` for a top-level group. O(1).
  func parent(at p: Int) -> Int? {
    let q = parentPositions[p]
    return q < 0 ? nil : Int(q)
  }
  /// One past the last position of the subtree of the item at `p` (`p + 1` for a row). O(1).
  func end(at p: Int) -> Int {
    let g = groupNumbers[p]
    return g >= 0 ? Int(groupEnds[Int(g)]) : p + 1
  }
  /// Groups: direct subgroups + direct rows; rows: 0. O(1).
  func childCount(at p: Int) -> Int {
    let g = groupNumbers[p]
    return g >= 0 ? Int(groupChildCounts[Int(g)]) : 0
  }
  /// Groups: rows in the whole subtree; rows: 0. O(1).
  func rowCount(at p: Int) -> Int {
    let g = groupNumbers[p]
    return g >= 0 ? Int(groupRowCounts[Int(g)]) : 0
  }
  /// Groups: active rows in the whole subtree; rows: 0. O(1).
  func activeCount(at p: Int) -> Int {
    let g = groupNumbers[p]
    return g >= 0 ? Int(groupActiveCounts[Int(g)]) : 0
  }
  /// Rows: `active:`; groups: `true`. O(1).
  func active(at p: Int) -> Bool { flags[p] & Flag.active != 0 }
  /// Rows: `emphasis:`; groups: `false`. O(1).
  func emphasis(at p: Int) -> Bool { flags[p] & Flag.emphasis != 0 }
  /// Groups: the file's `expanded:`, if it said; rows: `nil`. O(1).
  func expandedInFile(at p: Int) -> Bool? {
    let f = flags[p]
    return f & Flag.expandedKnown == 0 ? nil : f & Flag.expandedOpen != 0
  }
  /// Where the item at `p` is defined in the source. O(1).
  func source(at p: Int) -> SourceRange {
    let s = sources[p]
    if s.line < 0 { return sourceOverflow[Int(s.endLine)] }
    return SourceRange(
      start: SourcePosition(line: Int(s.line), column: Int(s.column)),
      end: SourcePosition(line: Int(s.endLine), column: Int(s.endColumn)))
  }
  /// Rows: the `data:` value, if any. O(1) on average.
  func data(at p: Int) -> OpaqueValue? {
    flags[p] & Flag.hasData == 0 ? nil : dataByPosition[p]
  }

  /// The id of the item at `p`. O(length).
  func id(at p: Int) -> String { string(spans[p].idStart, spans[p].idLength)! }
  /// The title of the item at `p`. O(length).
  func title(at p: Int) -> String { string(spans[p].textStart, spans[p].titleLength)! }
  /// Rows: the detail of the item at `p`, if any. O(length).
  func detail(at p: Int) -> String? { string(spans[p].detailStart, spans[p].detailLength) }
  /// The icon (a row) or badge (a group) as UTF-8, lent to `body`; `nil` when absent.
  func withExtraUTF8<R>(at p: Int, _ body: (UnsafeBufferPointer<UInt8>?) throws -> R) rethrows -> R {
    let s = spans[p]
    guard s.extraLength >= 0 else { return try body(nil) }
    return try arena.withUnsafeBufferPointer { a in try body(Self.slice(a, s.extraStart, s.extraLength)) }
  }

  /// Rows: the icon of the item at `p`, if any. O(length).
  func icon(at p: Int) -> String? {
    isGroup(at: p) ? nil : string(spans[p].extraStart, spans[p].extraLength)
  }
  /// Groups: the badge of the item at `p`, if any. O(length).
  func badge(at p: Int) -> String? {
    isGroup(at: p) ? string(spans[p].extraStart, spans[p].extraLength) : nil
  }

  /// The UTF-8 bytes of the title of the item at `p`, lent to `body`. O(1) plus `body`.
  func withIDUTF8<R>(at p: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    try arena.withUnsafeBufferPointer { a in try body(Self.slice(a, spans[p].idStart, spans[p].idLength)) }
  }

  func withTitleUTF8<R>(at p: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    try arena.withUnsafeBufferPointer { a in try body(Self.slice(a, spans[p].textStart, spans[p].titleLength)) }
  }

  func withDetailUTF8<R>(at p: Int, _ body: (UnsafeBufferPointer<UInt8>?) throws -> R) rethrows -> R {
    let s = spans[p]
    guard s.detailLength >= 0 else { return try body(nil) }
    return try arena.withUnsafeBufferPointer { a in try body(Self.slice(a, s.detailStart, s.detailLength)) }
  }

  /// The text at `start` of `length` bytes; `nil` for length -1.
  func string(_ start: Int32, _ length: Int32) -> String? {
    guard length >= 0 else { return nil }
    return arena.withUnsafeBufferPointer { a in String(decoding: Self.slice(a, start, length), as: UTF8.self) }
  }

  /// Whether item `p` of `a` and item `q` of `b` are the same: every field
  /// when `positional` is true; when it is false, only what a host is shown
  /// of the item in place (kind, id, texts, icon, badge, active, emphasis,
  /// data, depth, counts), leaving out its positions (parent, end, source),
  /// its `isLastChild` (the caller compares it as shown, also while
  /// filtered) and its `expanded` in the file (the user's state is shown).
  /// Texts compare as bytes; nothing is allocated.
  static func sameItem(_ a: OutlineItemTable, _ p: Int, _ b: OutlineItemTable, _ q: Int, positional: Bool) -> Bool {
    let shownFlags = Flag.group | Flag.active | Flag.emphasis | Flag.hasData
    let mask = positional ? UInt8.max : shownFlags
    guard a.flags[p] & mask == b.flags[q] & mask, a.depth(at: p) == b.depth(at: q),
      a.childCount(at: p) == b.childCount(at: q), a.rowCount(at: p) == b.rowCount(at: q),
      a.activeCount(at: p) == b.activeCount(at: q), a.data(at: p) == b.data(at: q)
    else { return false }
    if positional {
      guard a.lastChildFlags[p] == b.lastChildFlags[q], a.parent(at: p) == b.parent(at: q),
        a.end(at: p) == b.end(at: q),
        a.source(at: p) == b.source(at: q)
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

  /// The shared, immutable table of a finished outline.
  final class Box: Sendable {
    /// The table.
    let table: OutlineItemTable
    init(_ table: OutlineItemTable) { self.table = table }
  }
}

/// Where an item's texts are in an ``Outline``'s arena: the id anywhere; the
/// title, the detail and the icon (rows) or badge (groups) one after the
/// other from `textStart`. A length of -1 is an absent text.
struct TextSpans: Sendable, Equatable {
  var idStart: Int32 = 0
  var idLength: Int32 = -1
  var textStart: Int32 = 0
  var titleLength: Int32 = 0
  var detailLength: Int32 = -1
  var extraLength: Int32 = -1

  var detailStart: Int32 { textStart + titleLength }
  var extraStart: Int32 { detailStart + max(detailLength, 0) }
}

/// A ``SourceRange`` in 12 bytes: the start and end lines, and the start and
/// end columns when both are below 65,536 (an item's mapping spans lines; its
/// columns are its indentation). A range that does not fit has `line` -1 and
/// `endLine` its index in the outline's overflow list.
struct PackedSource: Sendable, Equatable {
  var line: Int32
  var endLine: Int32
  var column: UInt16
  var endColumn: UInt16

  /// The packed form of `r`, or `nil` when it does not fit.
  init?(_ r: SourceRange) {
    guard let line = Int32(exactly: r.start.line), line >= 0, let endLine = Int32(exactly: r.end.line),
      let column = UInt16(exactly: r.start.column), let endColumn = UInt16(exactly: r.end.column)
    else { return nil }
    self.line = line
    self.endLine = endLine
    self.column = column
    self.endColumn = endColumn
  }

  /// An entry of the overflow list.
  init(overflow index: Int) {
    line = -1
    endLine = Int32(index)
    column = 0
    endColumn = 0
  }
}
