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
  /// The items, shared read-only (see ``OutlineItemTable``).
  let storage: OutlineItemTable.Box

  /// Tells outlines apart: two outlines with the same identity hold the same
  /// items (a copy of an outline shares its storage). For caches of what is
  /// derived from the items alone.
  /// - Complexity: O(1).
  public var identity: ObjectIdentifier { ObjectIdentifier(storage) }

  /// Item positions of the top-level groups.
  public var roots: [Int] { storage.table.roots }
  /// Item positions of every group, in document order.
  public var groupPositions: [Int] { storage.table.groupPositions }
  /// Per item, the position of its parent, or -1: the compact form of
  /// ``OutlineItem/parent`` for the loops that visit every item.
  public var parentPositions: [Int32] { storage.table.parentPositions }
  /// Per item, ``OutlineItem/isLastChild``, compact.
  public var lastChildFlags: [Bool] { storage.table.lastChildFlags }

  /// An outline of the given fields and items, from ``OutlineBuilder``.
  init(title: String?, expansion: ExpansionPolicy?, layout: LayoutOverrides, table: OutlineItemTable) {
    self.title = title
    self.expansion = expansion
    self.layout = layout
    self.storage = OutlineItemTable.Box(table)
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
  public var count: Int { storage.table.count }
  /// Number of groups.
  public var groupCount: Int { storage.table.groupPositions.count }
  /// Number of rows.
  public var rowCount: Int { count - groupCount }

  /// The item position of `id`, or `nil`.
  /// - Complexity: O(1) on average, plus the bytes of `id` hashed and compared.
  public func position(of id: String) -> Int? {
    var id = id
    return id.withUTF8 { key in storage.table.position(ofUTF8: key) }
  }

  /// Item positions of the direct subgroups of `group` (`nil`: the top level).
  /// - Complexity: O(number of children).
  public func subgroups(of group: Int?) -> [Int] {
    guard let g = group else { return storage.table.roots }
    var result: [Int] = []
    var p = g + 1
    let end = end(at: g)
    while p < end, isGroup(at: p) {
      result.append(p)
      p = self.end(at: p)
    }
    return result
  }

  /// Bytes in use by the item table: the per-item and per-group arrays, the
  /// id table and the side tables, without the text arena (see ``textBytes``).
  /// Reserved but unwritten capacity is not counted.
  public var itemTableBytes: Int { storage.table.itemTableBytes }

  /// Bytes in use in the text arena (the UTF-8 of every id, title, detail, icon and badge).
  public var textBytes: Int { storage.table.textBytes }
}
