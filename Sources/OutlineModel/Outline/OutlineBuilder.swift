import Foundation  // localizedStandardCompare for `order: title`

/// Builds an ``Outline`` from the calls of a loader (an ``OutlineSink``),
/// without a whole ``OutlineDocument`` in memory.
///
/// Items are stored as they arrive, in the outline's compact arrays. The
/// file order differs from the outline's order only when a group's `rows:`
/// come before its `groups:` or its `order:` sorts rows; ``finish()`` then
/// moves the items in place, following the cycles of the permutation (a bit
/// per item and an `Int32` per item of extra memory). In the common case
/// (subgroups before rows, file order) nothing moves.
///
/// A handle is the group's arrival number (rows are counted too). The result is the one of
/// ``Outline/init(document:)`` for the same content, which feeds a builder.
public struct OutlineBuilder: OutlineSink {
  /// The items in arrival order; `parentPositions` holds arrival numbers until ``finish()``.
  private var table = OutlineItemTable()
  private var title: String? = nil
  private var expansion: ExpansionPolicy? = nil
  private var layout = LayoutOverrides()
  /// Per item: the next sibling of the same kind (subgroup or row) in arrival order, or -1.
  private var nextSibling: [Int32] = []
  /// Per group number: its first and last subgroup, first and last row (arrival numbers), or -1.
  private var firstSubgroup: [Int32] = []
  private var lastSubgroup: [Int32] = []
  private var firstRow: [Int32] = []
  private var lastRow: [Int32] = []
  /// Per group number: its `order:` (0: inherited, else 1 + the case's index).
  private var orders: [UInt8] = []
  private var firstRoot: Int32 = -1
  private var lastRoot: Int32 = -1

  /// An empty builder.
  public init() {}

  /// Reserves room for `items` items whose texts take `textBytes` UTF-8 bytes.
  public mutating func reserveCapacity(items: Int, textBytes: Int) {
    table.flags.reserveCapacity(items)
    table.lastChildFlags.reserveCapacity(items)
    table.parentPositions.reserveCapacity(items)
    table.groupNumbers.reserveCapacity(items)
    table.sources.reserveCapacity(items)
    table.spans.reserveCapacity(items)
    nextSibling.reserveCapacity(items)
    table.arena.reserveCapacity(textBytes)
  }

  /// The outline's `title:`.
  public mutating func setTitle(_ title: String) { self.title = title }

  /// The file's `expansion:`.
  public mutating func setExpansion(_ policy: ExpansionPolicy) { expansion = policy }

  /// The file's `layout:`.
  public mutating func setLayout(_ layout: LayoutOverrides) { self.layout = layout }

  /// A group starts; its handle is its arrival number. `parent` must be the
  /// handle of a group begun and not yet ended (`nil`: the top level).
  /// - Complexity: O(1) amortised.
  public mutating func beginGroup(parent: Int?, source: SourceRange) -> Int {
    let me = Int32(table.count)
    let number = Int32(table.groupEnds.count)
    appendItem(flags: OutlineItemTable.Flag.group | OutlineItemTable.Flag.active, parent: parent, source: source)
    table.groupNumbers.append(number)
    table.groupEnds.append(0)
    table.groupDepths.append(parent.map { table.groupDepths[Int(table.groupNumbers[$0])] + 1 } ?? 0)
    table.groupChildCounts.append(0)
    table.groupRowCounts.append(0)
    table.groupActiveCounts.append(0)
    firstSubgroup.append(-1)
    lastSubgroup.append(-1)
    firstRow.append(-1)
    lastRow.append(-1)
    orders.append(0)
    if let parent {
      let g = Int(table.groupNumbers[parent])
      if lastSubgroup[g] >= 0 { nextSibling[Int(lastSubgroup[g])] = me } else { firstSubgroup[g] = me }
      lastSubgroup[g] = me
      table.groupChildCounts[g] += 1
    } else {
      if lastRoot >= 0 { nextSibling[Int(lastRoot)] = me } else { firstRoot = me }
      lastRoot = me
    }
    return Int(me)
  }

  /// A row of the open group `parent` (a handle from ``beginGroup(parent:source:)``
  /// whose group has not ended). Traps when the texts pass 2 GiB.
  /// - Complexity: O(length of its texts) amortised.
  public mutating func addRow(_ row: RowSpec, parent: Int) {
    let me = Int32(table.count)
    var f: UInt8 = row.active ? OutlineItemTable.Flag.active : 0
    if row.emphasis { f |= OutlineItemTable.Flag.emphasis }
    if let data = row.data {
      f |= OutlineItemTable.Flag.hasData
      table.dataByPosition[Int(me)] = data
    }
    appendItem(flags: f, parent: parent, source: row.source)
    table.groupNumbers.append(-1)
    table.spans[Int(me)] = texts(id: row.id, title: row.title, detail: row.detail, extra: row.icon)
    let g = Int(table.groupNumbers[parent])
    if lastRow[g] >= 0 { nextSibling[Int(lastRow[g])] = me } else { firstRow[g] = me }
    lastRow[g] = me
    table.groupChildCounts[g] += 1
  }

  /// The group `group` (a handle from ``beginGroup(parent:source:)``) ends
  /// with its own fields; `fields.groups` and `fields.rows` are ignored (the
  /// children came before). Traps when the texts pass 2 GiB.
  /// - Complexity: O(length of its texts) amortised.
  public mutating func endGroup(_ group: Int, fields: GroupSpec) {
    table.spans[group] = texts(id: fields.id, title: fields.title, detail: nil, extra: fields.badge)
    if let open = fields.expanded {
      table.flags[group] |= OutlineItemTable.Flag.expandedKnown | (open ? OutlineItemTable.Flag.expandedOpen : 0)
    }
    table.sources[group] = pack(fields.source)
    let g = Int(table.groupNumbers[group])
    orders[g] = fields.order.map { UInt8(RowOrder.allCases.firstIndex(of: $0)! + 1) } ?? 0
  }

  private mutating func appendItem(flags: UInt8, parent: Int?, source: SourceRange) {
    table.flags.append(flags)
    table.lastChildFlags.append(false)
    table.parentPositions.append(Int32(parent ?? -1))
    table.sources.append(pack(source))
    table.spans.append(TextSpans())
    nextSibling.append(-1)
  }

  private mutating func pack(_ r: SourceRange) -> PackedSource {
    if let s = PackedSource(r) { return s }
    table.sourceOverflow.append(r)
    return PackedSource(overflow: table.sourceOverflow.count - 1)
  }

  /// Appends an item's texts to the arena: the explicit id, then title, detail, extra.
  private mutating func texts(id: String?, title: String, detail: String?, extra: String?) -> TextSpans {
    var s = TextSpans()
    if let id {
      s.idStart = arenaOffset()
      table.arena.append(contentsOf: id.utf8)
      s.idLength = arenaOffset() - s.idStart
    }
    s.textStart = arenaOffset()
    table.arena.append(contentsOf: title.utf8)
    s.titleLength = arenaOffset() - s.textStart
    if let detail {
      table.arena.append(contentsOf: detail.utf8)
      s.detailLength = arenaOffset() - s.textStart - s.titleLength
    }
    if let extra {
      let start = arenaOffset()
      table.arena.append(contentsOf: extra.utf8)
      s.extraLength = arenaOffset() - start
    }
    return s
  }

  private func arenaOffset() -> Int32 {
    guard let o = Int32(exactly: table.arena.count) else { fatalError("outline texts exceed 2 GiB") }
    return o
  }

  // MARK: Finishing

  /// The outline: items in preorder (a group, its subgroups, then its rows
  /// in their `order:`), counts, last-child flags and ids resolved.
  /// The builder is left empty: its storage becomes the outline's, so the
  /// arrays are moved and finished in place, never copied.
  /// - Complexity: O(n + text bytes) when groups need no sorting, plus
  ///   O(r log r) per group of r rows sorted by title.
  public mutating func finish() -> Outline {
    let n = table.count
    var positions = [Int32](repeating: -1, count: n)
    let identity = place(into: &positions)
    nextSibling = []
    firstSubgroup = []
    lastSubgroup = []
    firstRow = []
    lastRow = []
    orders = []
    // Parents become positions; then the items move to their positions.
    for p in 0..<n where table.parentPositions[p] >= 0 {
      table.parentPositions[p] = positions[Int(table.parentPositions[p])]
    }
    if !identity {
      var moved = [UInt64](repeating: 0, count: (n + 63) / 64)
      Self.permute(&table.flags, positions, &moved)
      Self.permute(&table.lastChildFlags, positions, &moved)
      Self.permute(&table.parentPositions, positions, &moved)
      Self.permute(&table.groupNumbers, positions, &moved)
      Self.permute(&table.sources, positions, &moved)
      Self.permute(&table.spans, positions, &moved)
      var data: [Int: OpaqueValue] = [:]
      data.reserveCapacity(table.dataByPosition.count)
      for (k, v) in table.dataByPosition { data[Int(positions[k])] = v }
      table.dataByPosition = data
    }
    positions = []
    table.groupPositions = []
    table.groupPositions.reserveCapacity(table.groupEnds.count)
    for p in 0..<n where table.flags[p] & OutlineItemTable.Flag.group != 0 { table.groupPositions.append(p) }
    resolveIDs()
    let result = Outline(title: title, expansion: expansion, layout: layout, table: table)
    self = OutlineBuilder()
    return result
  }

  /// Gives every item its position, sets each group's end, row and active
  /// counts and the last-child flags. Returns whether every item is already in place.
  private mutating func place(into positions: inout [Int32]) -> Bool {
    var next: Int32 = 0
    var identity = true
    // Open groups: arrival number, effective order, next subgroup to visit.
    var stack: [(item: Int32, order: UInt8, sub: Int32)] = []
    var rows: [Int32] = []
    func enter(_ item: Int32, inherited: UInt8) {
      positions[Int(item)] = next
      if next != item { identity = false }
      next += 1
      let g = Int(table.groupNumbers[Int(item)])
      stack.append((item, orders[g] != 0 ? orders[g] : inherited, firstSubgroup[g]))
    }
    var root = firstRoot
    while root >= 0 {
      table.roots.append(Int(next))
      enter(root, inherited: 1)
      while let top = stack.last {
        if top.sub >= 0 {
          stack[stack.count - 1].sub = nextSibling[Int(top.sub)]
          enter(top.sub, inherited: top.order)
          continue
        }
        stack.removeLast()
        let item = Int(top.item)
        let g = Int(table.groupNumbers[item])
        rows.removeAll(keepingCapacity: true)
        var r = firstRow[g]
        while r >= 0 {
          rows.append(r)
          r = nextSibling[Int(r)]
        }
        order(&rows, by: top.order)
        var active: Int32 = 0
        for row in rows {
          positions[Int(row)] = next
          if next != row { identity = false }
          next += 1
          if table.flags[Int(row)] & OutlineItemTable.Flag.active != 0 { active += 1 }
        }
        if let last = rows.last ?? (lastSubgroup[g] >= 0 ? lastSubgroup[g] : nil) {
          table.lastChildFlags[Int(last)] = true
        }
        table.groupEnds[g] = next
        table.groupRowCounts[g] += Int32(rows.count)
        table.groupActiveCounts[g] += active
        let parent = Int(table.parentPositions[item])
        if parent >= 0 {
          let pg = Int(table.groupNumbers[parent])
          table.groupRowCounts[pg] += table.groupRowCounts[g]
          table.groupActiveCounts[pg] += table.groupActiveCounts[g]
        }
      }
      root = nextSibling[Int(root)]
    }
    if lastRoot >= 0 { table.lastChildFlags[Int(lastRoot)] = true }
    return identity
  }

  /// Sorts a group's rows (arrival numbers) by `order` (1 file, 2 activeFirst, 3 title); stable.
  private func order(_ rows: inout [Int32], by order: UInt8) {
    guard rows.count > 1 else { return }
    switch RowOrder.allCases[Int(order) - 1] {
    case .file:
      return
    case .activeFirst:
      let active = rows.filter { table.flags[Int($0)] & OutlineItemTable.Flag.active != 0 }
      let inactive = rows.filter { table.flags[Int($0)] & OutlineItemTable.Flag.active == 0 }
      rows = active + inactive
    case .title:
      let titles = rows.map { table.title(at: Int($0)) }
      // Stable: ties keep file order.
      rows = titles.indices.sorted { a, b in
        switch titles[a].localizedStandardCompare(titles[b]) {
        case .orderedAscending: return true
        case .orderedDescending: return false
        case .orderedSame: return a < b
        }
      }.map { rows[$0] }
    }
  }

  /// Moves `a[i]` to `a[positions[i]]` for every `i`, in place, cycle by cycle.
  /// `moved` is a scratch bit set of `a.count` bits, cleared on return.
  private static func permute<T>(_ a: inout [T], _ positions: [Int32], _ moved: inout [UInt64]) {
    a.withUnsafeMutableBufferPointer { a in
      for s in 0..<a.count where moved[s >> 6] & (1 << UInt64(s & 63)) == 0 {
        var carried = a[s]
        var current = s
        repeat {
          let d = Int(positions[current])
          swap(&carried, &a[d])
          moved[d >> 6] |= 1 << UInt64(d & 63)
          current = d
        } while current != s
      }
    }
    for i in moved.indices { moved[i] = 0 }
  }

  /// Gives every item its id, in document order: an explicit id unless an
  /// earlier item took it, else the title path with `~2`, `~3`, … while
  /// taken or explicit elsewhere in the file.
  private mutating func resolveIDs() {
    let n = table.count
    var explicitCount = 0
    for s in table.spans where s.idLength >= 0 { explicitCount += 1 }
    var explicit = IDTable(capacityFor: explicitCount)
    var resolved = IDTable(capacityFor: n)
    table.arena.withUnsafeBufferPointer { a in
      table.spans.withUnsafeBufferPointer { spans in
        func key(_ p: Int32) -> UnsafeBufferPointer<UInt8> {
          OutlineItemTable.slice(a, spans[Int(p)].idStart, spans[Int(p)].idLength)
        }
        for p in 0..<n where spans[p].idLength >= 0 {
          let found = explicit.find(key(Int32(p)), keyOf: key)
          if found.position == nil { explicit.insert(Int32(p), at: found.slot) }
        }
      }
    }
    var pathGroup = -1
    var path: [UInt8] = []
    var candidate: [UInt8] = []
    // Per title path that collided, the next `~k` to try: the ones below are
    // taken for good (ids are only ever added), so n items that share a title
    // cost O(n), not O(n²).
    var nextSuffix: [[UInt8]: Int] = [:]
    for p in 0..<n {
      let own = table.spans[p]
      if own.idLength >= 0 {
        let found = lookup(own, in: resolved)
        if found.position == nil {
          resolved.insert(Int32(p), at: found.slot)
          continue
        }
      }
      // The title path: the parent's path, then this title.
      let isGroup = table.flags[p] & OutlineItemTable.Flag.group != 0
      let parent = Int(table.parentPositions[p])
      if parent != pathGroup {
        path = titlePath(of: parent)
        pathGroup = parent
      }
      candidate.removeAll(keepingCapacity: true)
      if !isGroup || !path.isEmpty {
        candidate.append(contentsOf: path)
        candidate.append(UInt8(ascii: "/"))
      }
      table.withTitleUTF8(at: p) { candidate.append(contentsOf: $0) }
      let base = candidate.count
      var k = 2
      var slot = 0
      var baseKey: [UInt8]? = nil
      while true {
        let found = candidate.withUnsafeBufferPointer { c in lookup(c, in: resolved) }
        if found.position == nil {
          let reserved = candidate.withUnsafeBufferPointer { c in lookup(c, in: explicit) }
          let isOwn =
            own.idLength >= 0
            && table.arena.withUnsafeBufferPointer { a in
              candidate.elementsEqual(OutlineItemTable.slice(a, own.idStart, own.idLength))
            }
          if reserved.position == nil || isOwn {
            slot = found.slot
            break
          }
        }
        if baseKey == nil {
          let key = Array(candidate[..<base])
          baseKey = key
          k = nextSuffix[key] ?? 2
        }
        candidate.removeSubrange(base...)
        candidate.append(UInt8(ascii: "~"))
        candidate.append(contentsOf: String(k).utf8)
        k += 1
      }
      if let baseKey { nextSuffix[baseKey] = k }
      var s = own
      s.idStart = arenaOffset()
      table.arena.append(contentsOf: candidate)
      s.idLength = Int32(candidate.count)
      table.spans[p] = s
      resolved.insert(Int32(p), at: slot)
    }
    table.ids = resolved
  }

  /// The item whose id is `key` in `ids`, or the empty slot for it.
  private func lookup(_ key: UnsafeBufferPointer<UInt8>, in ids: IDTable) -> (position: Int32?, slot: Int) {
    table.find(key, in: ids)
  }

  private func lookup(_ own: TextSpans, in ids: IDTable) -> (position: Int32?, slot: Int) {
    table.arena.withUnsafeBufferPointer { a in
      lookup(OutlineItemTable.slice(a, own.idStart, own.idLength), in: ids)
    }
  }

  /// The titles from the top down to the group at `group` joined by `/`
  /// (an empty path takes the next title alone); empty for -1.
  private func titlePath(of group: Int) -> [UInt8] {
    var chain: [Int] = []
    var g = group
    while g >= 0 {
      chain.append(g)
      g = Int(table.parentPositions[g])
    }
    var path: [UInt8] = []
    for g in chain.reversed() {
      if !path.isEmpty { path.append(UInt8(ascii: "/")) }
      table.withTitleUTF8(at: g) { path.append(contentsOf: $0) }
    }
    return path
  }
}
