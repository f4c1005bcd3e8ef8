/// The immutable structure of an outline: its items in document order, with
/// ids resolved and per-group counts computed. Expansion, heights and the
/// visible list live in ``OutlineState``.
///
/// Ids: an explicit `id:` is kept; an item without one gets the titles of its
/// path from the top joined by `/` (`Friends/Alice`), with `~2`, `~3`, …
/// appended when that id is already taken. So ids are stable across reloads
/// as long as titles are.
///
/// Storage is compact: per item a flag byte, the parent and group numbers
/// (`Int32`), a packed source range and the offsets of its texts; the texts
/// themselves (id, title, detail, icon, badge) as UTF-8 in one byte arena;
/// per group its end, depth and counts; `data:` values in a side table; ids
/// in an open-addressing table of positions. ``items`` gives each item as an
/// ``OutlineItem`` value, made on demand; loops over many items read single
/// fields instead (``kind(at:)``, ``parent(at:)``, ``title(at:)`` …).
public struct Outline: Sendable {
  /// The outline's `title:`.
  public var title: String?
  /// The file's `expansion:`.
  public var expansion: ExpansionPolicy?
  /// The file's `layout:`.
  public var layout: LayoutOverrides
  /// Item positions of the top-level groups.
  public internal(set) var roots: [Int] = []
  /// Item positions of every group, in document order.
  public internal(set) var groupPositions: [Int] = []
  /// Per item, the position of its parent, or -1: the compact form of
  /// ``OutlineItem/parent`` for the loops that visit every item.
  public internal(set) var parentPositions: [Int32] = []
  /// Per item, ``OutlineItem/isLastChild``, compact.
  public internal(set) var lastChildFlags: [Bool] = []

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

  /// An empty outline, filled by ``OutlineBuilder``.
  init() {
    title = nil
    expansion = nil
    layout = LayoutOverrides()
  }

  /// Builds the outline of a document, by feeding it to an ``OutlineBuilder``.
  /// - Complexity: O(n) for `order: file`, O(n log n) with sorted groups.
  public init(document: OutlineDocument) {
    var builder = OutlineBuilder()
    var items = 0
    var textBytes = 0
    Self.measure(document.groups, items: &items, textBytes: &textBytes)
    builder.reserveCapacity(items: items, textBytes: textBytes)
    if let t = document.title { builder.setTitle(t) }
    if let e = document.expansion { builder.setExpansion(e) }
    builder.setLayout(document.layout)
    for g in document.groups { Self.feed(g, parent: nil, to: &builder) }
    self = builder.finish()
  }

  /// Counts the items and the UTF-8 bytes of their texts (explicit ids included).
  private static func measure(_ groups: [GroupSpec], items: inout Int, textBytes: inout Int) {
    for g in groups {
      items += 1 + g.rows.count
      textBytes += (g.id?.utf8.count ?? 0) + g.title.utf8.count + (g.badge?.utf8.count ?? 0)
      for r in g.rows {
        textBytes += (r.id?.utf8.count ?? 0) + r.title.utf8.count + (r.detail?.utf8.count ?? 0)
        textBytes += r.icon?.utf8.count ?? 0
      }
      measure(g.groups, items: &items, textBytes: &textBytes)
    }
  }

  /// Sends a group as a loader would: subgroups, then rows, then its own fields.
  private static func feed(_ g: GroupSpec, parent: Int?, to builder: inout OutlineBuilder) {
    let handle = builder.beginGroup(parent: parent, source: g.source)
    for sub in g.groups { feed(sub, parent: handle, to: &builder) }
    for row in g.rows { builder.addRow(row, parent: handle) }
    builder.endGroup(
      handle,
      fields: GroupSpec(
        id: g.id, title: g.title, expanded: g.expanded, badge: g.badge, order: g.order, source: g.source))
  }

  /// Number of items (groups and rows).
  public var count: Int { flags.count }
  /// Number of groups.
  public var groupCount: Int { groupPositions.count }
  /// Number of rows.
  public var rowCount: Int { count - groupCount }

  /// The item position of `id`, or `nil`.
  /// - Complexity: O(1) on average, plus the bytes of `id` hashed and compared.
  public func position(of id: String) -> Int? {
    var id = id
    return id.withUTF8 { key in position(ofUTF8: key) }
  }

  /// The item position of the id whose UTF-8 bytes are `key`, or `nil`.
  func position(ofUTF8 key: UnsafeBufferPointer<UInt8>) -> Int? {
    arena.withUnsafeBufferPointer { a in
      spans.withUnsafeBufferPointer { s in
        ids.find(key) { p in Self.slice(a, s[Int(p)].idStart, s[Int(p)].idLength) }.position.map { Int($0) }
      }
    }
  }

  /// Item positions of the direct subgroups of `group` (`nil`: the top level).
  /// - Complexity: O(number of children).
  public func subgroups(of group: Int?) -> [Int] {
    guard let g = group else { return roots }
    var result: [Int] = []
    var p = g + 1
    let end = end(at: g)
    while p < end, isGroup(at: p) {
      result.append(p)
      p = self.end(at: p)
    }
    return result
  }

  /// Bytes held by the item table: the per-item and per-group arrays, the
  /// id table and the side tables, without the text arena (see ``textBytes``).
  public var itemTableBytes: Int {
    flags.capacity + lastChildFlags.capacity + 4 * (parentPositions.capacity + groupNumbers.capacity)
      + MemoryLayout<PackedSource>.stride * sources.capacity + MemoryLayout<TextSpans>.stride * spans.capacity
      + 8 * (roots.capacity + groupPositions.capacity)
      + 4
      * (groupEnds.capacity + groupDepths.capacity + groupChildCounts.capacity + groupRowCounts.capacity
        + groupActiveCounts.capacity)
      + ids.memoryFootprint + MemoryLayout<SourceRange>.stride * sourceOverflow.capacity
      + dataByPosition.capacity * (8 + MemoryLayout<OpaqueValue>.stride)
  }

  /// Bytes held by the text arena (the UTF-8 of every id, title, detail, icon and badge).
  public var textBytes: Int { arena.capacity }

  static func slice(_ a: UnsafeBufferPointer<UInt8>, _ start: Int32, _ length: Int32) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(rebasing: a[Int(start)..<Int(start) + Int(max(length, 0))])
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

/// A ``SourceRange`` in 12 bytes: start line and column, and the end column
/// as an offset on the same line. A range that does not fit has `line` -1
/// and `column` its index in the outline's overflow list.
struct PackedSource: Sendable, Equatable {
  var line: Int32
  var column: Int32
  var length: Int32

  /// The packed form of `r`, or `nil` when it does not fit.
  init?(_ r: SourceRange) {
    guard r.start.line == r.end.line, r.end.column >= r.start.column, let line = Int32(exactly: r.start.line),
      line >= 0, let column = Int32(exactly: r.start.column), column >= 0,
      let length = Int32(exactly: r.end.column - r.start.column)
    else { return nil }
    self.line = line
    self.column = column
    self.length = length
  }

  /// An entry of the overflow list.
  init(overflow index: Int) {
    line = -1
    column = Int32(index)
    length = 0
  }
}
