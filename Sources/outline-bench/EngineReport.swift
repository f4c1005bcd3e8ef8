import Foundation

enum EngineReport {
  static func table(_ options: Options) -> Table {
    var results: [EngineResult] = []
    for nested in options.nested ? [false, true] : [false] {
      for n in options.sizes {
        progressLog("engine: \(fmtCount(n)) rows\(nested ? ", nested" : "")")
        results.append(EngineBench.run(rows: n, nested: nested, quick: options.quick))
      }
    }
    var t = Table(
      title: "1. Engine, in process (median per operation)",
      header: [
        "outline", "items", "build", "toggle multiple", "toggle single", "window 100", "hit test",
        "expandAll", "collapseAll", "index B/item", "worst op vs 1k",
      ])
    for r in results {
      let base = results.first { $0.nested == r.nested && $0.rows == options.sizes.first }
      let ratio =
        base.map { b in
          max(r.toggleMultiple / b.toggleMultiple, r.toggleSingle / b.toggleSingle, r.window / b.window, r.hit / b.hit)
        } ?? .nan
      t.rows.append([
        "\(fmtCount(r.rows)) rows\(r.nested ? " nested" : "")", "\(r.items)", fmtTime(r.build),
        fmtTime(r.toggleMultiple), fmtTime(r.toggleSingle), fmtTime(r.window), fmtTime(r.hit),
        fmtTime(r.expandAll), fmtTime(r.collapseAll), String(format: "%.1f", r.indexBytesPerItem), fmtRatio(ratio),
      ])
    }
    let largest = results.filter { !$0.nested }.max { $0.rows < $1.rows }
    if let l = largest {
      let worst = max(l.toggleMultiple, l.toggleSingle, l.window, l.hit)
      t.notes.append(
        "Goal: toggle, window and hit test at the largest size within 2× of the smallest and each under 10 µs: "
          + "worst op \(fmtTime(worst)), "
          + "ratio \(t.rows[results.firstIndex { $0.rows == l.rows && !$0.nested }!].last!) → "
          + (worst < 10_000 ? "under 10 µs" : "OVER 10 µs") + ".")
      t.notes.append(
        "Index memory: visibility index + per-item expansion and height arrays, "
          + String(format: "%.1f", l.indexBytesPerItem)
          + " B/item (goal ≤ 64). The item table itself (flags, parents, counts, text offsets, id table) is "
          + String(format: "%.1f", l.itemTableBytesPerItem) + " B/item, plus "
          + String(format: "%.1f", l.textBytesPerItem) + " B/item of UTF-8 text.")
    }
    t.notes.append(
      "toggle multiple: close then reopen a random group; toggle single: open a random group, closing its open sibling; "
        + "window: visibleItems(start: random, count: 100); hit test: visibleItem(atOffset: random y).")
    return t
  }
}
