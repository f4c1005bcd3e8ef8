/// The items of an outline in the order their source ranges start, so that
/// the innermost item at a source position is found in O(log n + depth)
/// (PROTOCOL §9 `itemAtPosition`). Item positions are in shown order, which
/// is not source order where rows are ordered by title or `activeFirst`.
///
/// Items' ranges nest as their mappings do: two are disjoint or one holds
/// the other. So the innermost range holding a position is the range of the
/// last item that starts at or before it, or of its nearest ancestor that
/// holds it. An item brought by a YAML alias, and everything inside it,
/// has the alias's range: the item the alias names is the outermost of
/// those.
///
/// Memory: 4 bytes per item.
struct SourceIndex: Sendable {
  /// Item positions, ordered by the start of their source range; ties in document order.
  private let order: [Int32]

  /// Orders the items of `outline` by where they start.
  /// - Complexity: O(n) when document order is source order, else O(n log n).
  init(_ outline: Outline) {
    var order = [Int32](0..<Int32(outline.count))
    var sorted = true
    var previous = SourcePosition(line: Int.min, column: Int.min)
    for p in 0..<outline.count {
      let start = outline.source(at: p).start
      if start < previous {
        sorted = false
        break
      }
      previous = start
    }
    if !sorted {
      let starts = (0..<outline.count).map { outline.source(at: $0).start }
      order.sort { a, b in
        let (x, y) = (starts[Int(a)], starts[Int(b)])
        return x < y || (x == y && a < b)
      }
    }
    self.order = order
  }

  /// The innermost item of `outline` (the outline this index was made of)
  /// whose range `[start, end)` holds `position`, or `nil`.
  /// - Complexity: O(log n + depth).
  func innermost(containing position: SourcePosition, in outline: Outline) -> Int? {
    // The last item that starts at or before `position`.
    var low = 0
    var high = order.count
    while low < high {
      let mid = (low + high) / 2
      if outline.source(at: Int(order[mid])).start <= position { low = mid + 1 } else { high = mid }
    }
    guard low > 0 else { return nil }
    var p = Int(order[low - 1])
    while true {
      let range = outline.source(at: p)
      if range.start <= position && position < range.end { break }
      guard let parent = outline.parent(at: p) else { return nil }
      p = parent
    }
    while let parent = outline.parent(at: p), outline.source(at: parent) == outline.source(at: p) { p = parent }
    return p
  }
}
