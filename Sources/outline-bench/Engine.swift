import OutlineModel

/// Generated outlines, built in memory.
enum Generated {
  /// `rows` rows in groups of 10, every group expanded (`nested == false`); or
  /// the same rows under three levels of groups of 10 (top → 10 → 10 → 10 rows).
  static func document(rows: Int, nested: Bool) -> OutlineDocument {
    func leaf(_ g: Int, expanded: Bool) -> GroupSpec {
      var rs: [RowSpec] = []
      rs.reserveCapacity(10)
      for r in 0..<10 {
        let n = g * 10 + r
        rs.append(RowSpec(id: "r\(n)", title: "Row \(n)", active: n % 3 != 0))
      }
      return GroupSpec(id: "g\(g)", title: "Group \(g)", expanded: expanded, rows: rs)
    }
    let leaves = max(1, rows / 10)
    if !nested {
      var groups: [GroupSpec] = []
      groups.reserveCapacity(leaves)
      for g in 0..<leaves { groups.append(leaf(g, expanded: true)) }
      return OutlineDocument(groups: groups)
    }
    var tops: [GroupSpec] = []
    var g = 0
    var t = 0
    while g < leaves {
      var mids: [GroupSpec] = []
      for m in 0..<10 where g < leaves {
        var ls: [GroupSpec] = []
        for _ in 0..<10 where g < leaves {
          ls.append(leaf(g, expanded: true))
          g += 1
        }
        mids.append(GroupSpec(id: "m\(t)-\(m)", title: "Mid \(t).\(m)", expanded: true, groups: ls))
      }
      tops.append(GroupSpec(id: "t\(t)", title: "Top \(t)", expanded: true, groups: mids))
      t += 1
    }
    return OutlineDocument(groups: tops)
  }
}

struct EngineResult {
  var rows: Int
  var nested: Bool
  var items: Int
  var build: Double
  var toggleMultiple: Double
  var toggleSingle: Double
  var window: Double
  var hit: Double
  var expandAll: Double
  var collapseAll: Double
  var indexBytesPerItem: Double
  /// Bytes of the outline's item table per item, text arena excluded.
  var itemTableBytesPerItem: Double
  /// Bytes of the outline's text arena per item.
  var textBytesPerItem: Double
}

enum EngineBench {
  static func run(rows: Int, nested: Bool, quick: Bool) -> EngineResult {
    let t0 = nowNanos()
    let outline = Outline(document: Generated.document(rows: rows, nested: nested))
    var state = OutlineState(outline: outline)
    let build = Double(nowNanos() - t0)
    let groups = outline.groupPositions
    let ops = quick ? 2_000 : 20_000
    let repeats = quick ? 3 : 7
    var rng = SplitMix(seed: 42)
    let targets = (0..<ops).map { _ in groups[Int.random(in: 0..<groups.count, using: &rng)] }

    // Toggle under `multiple`: each target closed then opened again (2 toggles).
    let toggleMultiple = timePerOp(repeats: repeats, ops: 2 * ops) {
      for g in targets {
        sink(try! state.toggle(g))
        sink(try! state.toggle(g))
      }
    }
    let total = state.total
    let starts = (0..<ops).map { _ in Int.random(in: 0..<max(1, total - 100), using: &rng) }
    let window = timePerOp(repeats: repeats, ops: ops) {
      for s in starts { sink(state.visibleItems(start: s, count: 100)) }
    }
    let height = state.contentHeight
    let ys = (0..<ops).map { _ in Double.random(in: 0..<height, using: &rng) }
    let hit = timePerOp(repeats: repeats, ops: ops) {
      for y in ys { sink(state.visibleItem(atOffset: y)) }
    }
    let bigRepeats = rows >= 1_000_000 ? 3 : repeats
    var collapses: [Double] = []
    var expands: [Double] = []
    for _ in 0..<bigRepeats {
      let t0 = nowNanos()
      sink(state.collapseAll())
      let t1 = nowNanos()
      sink(try! state.expandAll())
      let t2 = nowNanos()
      collapses.append(Double(t1 - t0))
      expands.append(Double(t2 - t1))
    }
    let bytes = Double(state.indexMemoryFootprint) / Double(outline.count)

    // Toggle under `single`: opening a group closes its open sibling.
    var single = OutlineState(outline: outline, policy: .single)
    let toggleSingle = timePerOp(repeats: repeats, ops: ops) {
      for g in targets { sink(try! single.toggle(g, expanded: true)) }
    }
    return EngineResult(
      rows: rows, nested: nested, items: outline.count, build: build, toggleMultiple: toggleMultiple,
      toggleSingle: toggleSingle, window: window, hit: hit, expandAll: median(expands), collapseAll: median(collapses),
      indexBytesPerItem: bytes,
      itemTableBytesPerItem: Double(outline.itemTableBytes) / Double(outline.count),
      textBytesPerItem: Double(outline.textBytes) / Double(outline.count))
  }
}
