import Foundation  // localizedStandardCompare for `order: title`

/// The immutable structure of an outline: its items in document order, with
/// ids resolved and per-group counts computed. Expansion, heights and the
/// visible list live in ``OutlineState``.
///
/// Ids: an explicit `id:` is kept; an item without one gets the titles of its
/// path from the top joined by `/` (`Friends/Alice`), with `~2`, `~3`, …
/// appended when that id is already taken. So ids are stable across reloads
/// as long as titles are.
public struct Outline: Sendable {
  /// The items in document order (see ``OutlineItem``).
  public private(set) var items: [OutlineItem]
  /// The outline's `title:`.
  public var title: String?
  /// The file's `expansion:`.
  public var expansion: ExpansionPolicy?
  /// The file's `layout:`.
  public var layout: LayoutOverrides
  /// Item positions of the top-level groups.
  public private(set) var roots: [Int]
  private var positionByID: [String: Int]

  /// Builds the outline of a document.
  /// - Complexity: O(n) for `order: file`, O(n log n) with sorted groups.
  public init(document: OutlineDocument) {
    title = document.title
    expansion = document.expansion
    layout = document.layout
    items = []
    roots = []
    positionByID = [:]
    groupPositions = []
    parentPositions = []
    lastChildFlags = []
    var explicit = Set<String>()
    Self.collectIDs(document.groups, into: &explicit)
    var builder = Builder(explicitIDs: explicit, capacity: Self.itemCount(document.groups))
    for (i, g) in document.groups.enumerated() {
      roots.append(builder.items.count)
      builder.add(group: g, parent: nil, depth: 0, path: "", order: .file, isLast: i == document.groups.count - 1)
    }
    items = builder.items
    positionByID = builder.positionByID
    // Index loops reading stored fields: mapping over the items would copy each one.
    let n = items.count
    groupPositions = (0..<n).filter { items[$0].kind == .group }
    parentPositions = (0..<n).map { Int32(items[$0].parent ?? -1) }
    lastChildFlags = (0..<n).map { items[$0].isLastChild }
  }

  private static func itemCount(_ groups: [GroupSpec]) -> Int {
    groups.reduce(0) { $0 + 1 + $1.rows.count + itemCount($1.groups) }
  }

  private static func collectIDs(_ groups: [GroupSpec], into set: inout Set<String>) {
    for g in groups {
      if let id = g.id { set.insert(id) }
      for r in g.rows { if let id = r.id { set.insert(id) } }
      collectIDs(g.groups, into: &set)
    }
  }

  /// Number of items (groups and rows).
  public var count: Int { items.count }
  /// Number of groups.
  public var groupCount: Int { groupPositions.count }
  /// Item positions of every group, in document order.
  public private(set) var groupPositions: [Int]
  /// Per item, the position of its parent, or -1: a compact copy of
  /// ``OutlineItem/parent`` for the loops that visit every item.
  public private(set) var parentPositions: [Int32]
  /// Per item, ``OutlineItem/isLastChild``, compact.
  public private(set) var lastChildFlags: [Bool]
  /// Number of rows.
  public var rowCount: Int { items.count - groupCount }

  /// The item position of `id`, or `nil`.
  /// - Complexity: O(1) on average.
  public func position(of id: String) -> Int? { positionByID[id] }

  /// Item positions of the direct subgroups of `group` (`nil`: the top level).
  /// - Complexity: O(number of children).
  public func subgroups(of group: Int?) -> [Int] {
    guard let g = group else { return roots }
    var result: [Int] = []
    var p = g + 1
    while p < items[g].end, items[p].kind == .group {
      result.append(p)
      p = items[p].end
    }
    return result
  }

  private struct Builder {
    var items: [OutlineItem] = []
    var positionByID: [String: Int] = [:]
    let explicitIDs: Set<String>

    init(explicitIDs: Set<String>, capacity: Int) {
      self.explicitIDs = explicitIDs
      items.reserveCapacity(capacity)
      positionByID.reserveCapacity(capacity)
    }

    /// The item's id: its explicit one, else its title path (made only then).
    mutating func resolve(_ explicit: String?, path makePath: @autoclosure () -> String) -> String {
      if let id = explicit, positionByID[id] == nil { return id }
      let path = makePath()
      // A duplicate explicit id is refused by the loader; derive one anyway.
      var candidate = path
      var n = 2
      while positionByID[candidate] != nil || (explicitIDs.contains(candidate) && candidate != explicit) {
        candidate = "\(path)~\(n)"
        n += 1
      }
      return candidate
    }

    /// Adds a group and its subtree; returns (rowCount, activeCount).
    @discardableResult
    mutating func add(group g: GroupSpec, parent: Int?, depth: Int, path: String, order: RowOrder, isLast: Bool)
      -> (Int, Int)
    {
      let path = path.isEmpty ? g.title : path + "/" + g.title
      let id = resolve(g.id, path: path)
      let me = items.count
      positionByID[id] = me
      items.append(
        OutlineItem(
          kind: .group, id: id, title: g.title, detail: nil, icon: nil, badge: g.badge, active: true,
          emphasis: false, data: nil, depth: depth, parent: parent, end: me + 1, isLastChild: isLast,
          childCount: g.groups.count + g.rows.count, rowCount: 0, activeCount: 0, expandedInFile: g.expanded,
          source: g.source))
      let order = g.order ?? order
      var rowCount = 0
      var activeCount = 0
      for (i, sub) in g.groups.enumerated() {
        let (r, a) = add(
          group: sub, parent: me, depth: depth + 1, path: path, order: order,
          isLast: i == g.groups.count - 1 && g.rows.isEmpty)
        rowCount += r
        activeCount += a
      }
      let rows = Self.ordered(g.rows, by: order)
      for (i, row) in rows.enumerated() {
        let rid = resolve(row.id, path: path + "/" + row.title)
        positionByID[rid] = items.count
        items.append(
          OutlineItem(
            kind: .row, id: rid, title: row.title, detail: row.detail, icon: row.icon, badge: nil,
            active: row.active, emphasis: row.emphasis, data: row.data, depth: depth + 1, parent: me,
            end: items.count + 1, isLastChild: i == rows.count - 1, childCount: 0, rowCount: 0, activeCount: 0,
            expandedInFile: nil, source: row.source))
        rowCount += 1
        if row.active { activeCount += 1 }
      }
      items[me].end = items.count
      items[me].rowCount = rowCount
      items[me].activeCount = activeCount
      return (rowCount, activeCount)
    }

    static func ordered(_ rows: [RowSpec], by order: RowOrder) -> [RowSpec] {
      switch order {
      case .file:
        return rows
      case .activeFirst:
        return rows.filter(\.active) + rows.filter { !$0.active }
      case .title:
        // Stable: ties keep file order.
        return rows.enumerated().sorted { a, b in
          switch a.element.title.localizedStandardCompare(b.element.title) {
          case .orderedAscending: return true
          case .orderedDescending: return false
          case .orderedSame: return a.offset < b.offset
          }
        }.map(\.element)
      }
    }
  }
}
