/// An index over the items of an outline in document order (preorder) that
/// answers, for the items currently visible, "how many before this one",
/// "how tall is everything before this one", "which is the k-th" and
/// "which covers offset y" — all in O(log n).
///
/// Each item `i` carries a *cover*: the number of its collapsed ancestors.
/// It is visible when its cover is 0. Collapsing a group adds 1 to the cover
/// of its whole subtree range, expanding subtracts 1, so a toggle is one
/// range update whatever the depth or the size of the group.
///
/// The structure is a segment tree with lazy range-add that keeps, per node,
/// the minimum cover in its range and the count and summed height of the
/// items attaining it. Because covers are never negative, the items whose
/// cover is 0 are exactly those attaining a minimum of 0. Adds are never
/// pushed down: a node's minimum includes its own pending add, and reads
/// accumulate adds on the way down.
///
/// Nodes use the compact preorder layout: the node of `[l, r)` is `v`, its
/// left child `v + 1`, its right child `v + 2 × (mid − l)`; `2n − 1` nodes.
/// A node's fields sit together in 16 bytes, so a step down the tree reads
/// one cache line, not one per field: on big outlines the walk is bound by
/// memory, not by instructions. Memory: 32 bytes per item.
public struct VisibilityIndex: Sendable {
  /// One node: covers fit 16 bits because they are bounded by the depth
  /// (the loader refuses nesting deeper than 256).
  struct Node {
    var heightAtMin: Double = 0
    var countAtMin: Int32 = 0
    var add: Int16 = 0
    var minCover: Int16 = 0
  }

  /// The deepest cover the index holds.
  public static let maxCover = Int(Int16.max)

  /// Number of items (visible or not).
  public private(set) var count: Int
  private var nodes: [Node]

  /// Builds the index.
  /// - Parameters:
  ///   - covers: per item, its number of collapsed ancestors (≥ 0).
  ///   - heights: per item, its height in the layout's unit (≥ 0).
  /// - Complexity: O(n).
  public init(covers: [Int32], heights: [Double]) {
    precondition(covers.count == heights.count)
    count = covers.count
    nodes = [Node](repeating: Node(), count: max(1, 2 * count - 1))
    if count > 0 { build(0, 0, count, covers, heights) }
  }

  private mutating func build(_ v: Int, _ l: Int, _ r: Int, _ covers: [Int32], _ heights: [Double]) {
    if r - l == 1 {
      precondition(covers[l] >= 0 && covers[l] <= Self.maxCover, "cover out of range")
      nodes[v] = Node(heightAtMin: heights[l], countAtMin: 1, add: Int16(covers[l]), minCover: Int16(covers[l]))
      return
    }
    let mid = (l + r) / 2
    let lc = v + 1
    let rc = v + 2 * (mid - l)
    build(lc, l, mid, covers, heights)
    build(rc, mid, r, covers, heights)
    pull(v, lc, rc)
  }

  @inline(__always)
  private mutating func pull(_ v: Int, _ lc: Int, _ rc: Int) {
    let left = nodes[lc]
    let right = nodes[rc]
    let m = min(left.minCover, right.minCover)
    var c: Int32 = 0
    var h: Double = 0
    if left.minCover == m {
      c += left.countAtMin
      h += left.heightAtMin
    }
    if right.minCover == m {
      c += right.countAtMin
      h += right.heightAtMin
    }
    nodes[v].minCover = nodes[v].add + m
    nodes[v].countAtMin = c
    nodes[v].heightAtMin = h
  }

  /// Number of visible items.
  /// - Complexity: O(1).
  public var visibleCount: Int {
    count > 0 && nodes[0].minCover == 0 ? Int(nodes[0].countAtMin) : 0
  }

  /// Sum of the heights of the visible items.
  /// - Complexity: O(1).
  public var visibleHeight: Double {
    count > 0 && nodes[0].minCover == 0 ? nodes[0].heightAtMin : 0
  }

  /// Adds `delta` to the cover of every item in `range`.
  /// - Complexity: O(log n).
  public mutating func addCover(_ delta: Int32, in range: Range<Int>) {
    guard !range.isEmpty else { return }
    precondition(range.lowerBound >= 0 && range.upperBound <= count)
    precondition(abs(delta) <= Self.maxCover)
    rangeAdd(0, 0, count, range.lowerBound, range.upperBound, Int16(delta))
  }

  private mutating func rangeAdd(_ v: Int, _ l: Int, _ r: Int, _ ql: Int, _ qr: Int, _ delta: Int16) {
    if ql <= l && r <= qr {
      nodes[v].add += delta
      nodes[v].minCover += delta
      return
    }
    let mid = (l + r) / 2
    let lc = v + 1
    let rc = v + 2 * (mid - l)
    if ql < mid { rangeAdd(lc, l, mid, ql, qr, delta) }
    if qr > mid { rangeAdd(rc, mid, r, ql, qr, delta) }
    pull(v, lc, rc)
  }

  /// Sets the height of item `i`.
  /// - Complexity: O(log n).
  public mutating func setHeight(_ height: Double, at i: Int) {
    precondition(i >= 0 && i < count)
    setHeight(0, 0, count, i, height)
  }

  private mutating func setHeight(_ v: Int, _ l: Int, _ r: Int, _ i: Int, _ height: Double) {
    if r - l == 1 {
      nodes[v].heightAtMin = height
      return
    }
    let mid = (l + r) / 2
    let lc = v + 1
    let rc = v + 2 * (mid - l)
    if i < mid { setHeight(lc, l, mid, i, height) } else { setHeight(rc, mid, r, i, height) }
    pull(v, lc, rc)
  }

  /// The cover of item `i` (its number of collapsed ancestors).
  /// - Complexity: O(log n).
  public func cover(of i: Int) -> Int {
    precondition(i >= 0 && i < count)
    var v = 0
    var l = 0
    var r = count
    var acc: Int32 = 0
    while r - l > 1 {
      acc += Int32(nodes[v].add)
      let mid = (l + r) / 2
      if i < mid {
        v += 1
        r = mid
      } else {
        v += 2 * (mid - l)
        l = mid
      }
    }
    return Int(acc + Int32(nodes[v].add))
  }

  /// Whether item `i` is visible (no collapsed ancestor).
  /// - Complexity: O(log n).
  public func isVisible(_ i: Int) -> Bool { cover(of: i) == 0 }

  /// The number and summed height of the visible items in `0..<i`: the
  /// visible index and the `top` of item `i` when it is visible.
  /// - Complexity: O(log n).
  public func prefix(before i: Int) -> (count: Int, height: Double) {
    precondition(i >= 0 && i <= count)
    if i == count { return (visibleCount, visibleHeight) }
    let found = locate(item: i)
    return (found.index, found.top)
  }

  /// Item `i`'s cover with the number and summed height of the visible
  /// items before it (its visible index and `top` when its cover is 0), in
  /// one walk down the tree.
  /// - Complexity: O(log n).
  public func locate(item i: Int) -> (cover: Int, index: Int, top: Double) {
    precondition(i >= 0 && i < count)
    var v = 0
    var l = 0
    var r = count
    var above: Int32 = 0  // adds of the strict ancestors of v
    var c = 0
    var h: Double = 0
    while r - l > 1 {
      let mid = (l + r) / 2
      let lc = v + 1
      let rc = v + 2 * (mid - l)
      let acc = above + Int32(nodes[v].add)
      if i < mid {
        v = lc
        r = mid
      } else {
        let left = nodes[lc]
        if acc + Int32(left.minCover) == 0 {
          c += Int(left.countAtMin)
          h += left.heightAtMin
        }
        v = rc
        l = mid
      }
      above = acc
    }
    return (Int(above + Int32(nodes[v].add)), c, h)
  }

  /// The number of visible items in `range`.
  /// - Complexity: O(log n).
  public func visibleCount(in range: Range<Int>) -> Int {
    prefix(before: range.upperBound).count - prefix(before: range.lowerBound).count
  }

  /// The item at visible index `k` (0-based), or `nil` when `k` is out of range.
  /// - Complexity: O(log n).
  public func item(atVisibleIndex k: Int) -> Int? { locate(visibleIndex: k)?.item }

  /// The item at visible index `k` with its `top`, in one walk down the tree.
  /// - Complexity: O(log n).
  public func locate(visibleIndex k: Int) -> (item: Int, top: Double)? {
    guard k >= 0, k < visibleCount else { return nil }
    var v = 0
    var l = 0
    var r = count
    var above: Int32 = 0
    var k = Int32(k)
    var top: Double = 0
    while r - l > 1 {
      let mid = (l + r) / 2
      let lc = v + 1
      let rc = v + 2 * (mid - l)
      let acc = above + Int32(nodes[v].add)
      let left = nodes[lc]
      let leftVisible = acc + Int32(left.minCover) == 0
      let leftCount: Int32 = leftVisible ? left.countAtMin : 0
      if k < leftCount {
        v = lc
        r = mid
      } else {
        k -= leftCount
        if leftVisible { top += left.heightAtMin }
        v = rc
        l = mid
      }
      above = acc
    }
    return (l, top)
  }

  /// The visible item whose span contains `y` (as ``item(atOffset:)``) with
  /// its visible index and `top`, in one walk down the tree.
  /// - Complexity: O(log n).
  public func locate(offset y: Double) -> (item: Int, index: Int, top: Double)? {
    guard y >= 0, y < visibleHeight else { return nil }
    var v = 0
    var l = 0
    var r = count
    var above: Int32 = 0
    var y = y
    var index = 0
    var top: Double = 0
    while r - l > 1 {
      let mid = (l + r) / 2
      let lc = v + 1
      let rc = v + 2 * (mid - l)
      let acc = above + Int32(nodes[v].add)
      let left = nodes[lc]
      let leftVisible = acc + Int32(left.minCover) == 0
      let leftHeight: Double = leftVisible ? left.heightAtMin : 0
      if y < leftHeight {
        v = lc
        r = mid
      } else {
        y -= leftHeight
        if leftVisible {
          top += leftHeight
          index += Int(left.countAtMin)
        }
        v = rc
        l = mid
      }
      above = acc
    }
    return (l, index, top)
  }

  /// The visible item whose span `[top, top + height)` contains `y`; items of
  /// height 0 are never hit. `nil` when `y` is not below the end of the
  /// visible content or `y < 0` (the caller clamps).
  /// - Complexity: O(log n).
  public func item(atOffset y: Double) -> Int? { locate(offset: y)?.item }

  /// Bytes held by the index (its arrays' storage).
  public var memoryFootprint: Int {
    nodes.capacity * MemoryLayout<Node>.stride
  }
}
