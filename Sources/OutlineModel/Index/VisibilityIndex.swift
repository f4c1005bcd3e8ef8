/// An index over the items of an outline in document order (preorder) that
/// answers, for the items currently visible, "how many before this one",
/// "how tall is everything before this one", "which is the k-th" and
/// "which covers offset y" — all in O(log n + B), B = ``bucketSize``.
///
/// Each item `i` carries a *cover*: the number of its collapsed ancestors
/// (plus one when a filter hides it). It is visible when its cover is 0.
/// Collapsing a group adds 1 to the cover of its whole subtree range,
/// expanding subtracts 1, so a toggle is one range update whatever the depth
/// or the size of the group.
///
/// Items are grouped in *buckets* of B consecutive items. Each item keeps its
/// own cover (an `Int16`, relative to the adds pending above its bucket) and
/// its height (a `Double`) in two flat arrays. Over the buckets sits a segment
/// tree with lazy range-add that keeps, per node, the minimum cover in its
/// range and the count and summed height of the items attaining it. Because
/// covers are never negative, the items whose cover is 0 are exactly those
/// attaining a minimum of 0. Adds are never pushed down: a node's minimum
/// includes its own pending add, and reads accumulate adds on the way down.
/// A range add lazily tags the nodes of the buckets it covers whole, and
/// rewrites in place the covers of the items of the (at most two) buckets it
/// covers in part, then recomputes their summaries in O(B). A query walks
/// down the tree to one bucket, then scans at most B contiguous items.
///
/// Nodes use the compact preorder layout: the node of buckets `[l, r)` is
/// `v`, its left child `v + 1`, its right child `v + 2 × (mid − l)`;
/// `2m − 1` nodes for `m` buckets. A node's fields sit together in 16 bytes,
/// so a step down the tree reads one cache line. Memory per item: 8 bytes of
/// height, 2 of cover and 32 / B of tree.
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

  /// log2 of ``bucketSize``.
  static let bucketShift = 5
  /// Number of consecutive items per bucket (a leaf of the tree), chosen by
  /// measurement (32 costs about as many instructions per operation as 16,
  /// with half the tree): each query scans at most this many items.
  public static let bucketSize = 1 << bucketShift

  /// Number of items (visible or not).
  public private(set) var count: Int
  /// Per item, its height in the layout's unit (≥ 0), indexed by position.
  public private(set) var heights: [Double]
  /// Per item, its cover minus the adds pending on the nodes above it
  /// (its bucket's leaf included).
  private var covers: [Int16]
  private var nodes: [Node]
  /// Number of buckets: ⌈count / B⌉.
  private var bucketCount: Int

  /// Builds the index.
  /// - Parameters:
  ///   - covers: per item, its number of collapsed ancestors (≥ 0, ≤ ``maxCover``).
  ///   - heights: per item, its height in the layout's unit (≥ 0); the index keeps this array.
  /// - Complexity: O(n).
  public init(covers: [Int32], heights: [Double]) {
    precondition(covers.count == heights.count)
    count = covers.count
    self.heights = heights
    self.covers = covers.map { c in
      precondition(c >= 0 && c <= Self.maxCover, "cover out of range")
      return Int16(c)
    }
    bucketCount = (count + Self.bucketSize - 1) >> Self.bucketShift
    nodes = [Node](repeating: Node(), count: max(1, 2 * bucketCount - 1))
    if count > 0 { build(0, 0, bucketCount) }
  }

  private mutating func build(_ v: Int, _ l: Int, _ r: Int) {
    if r - l == 1 {
      summarize(v, bucket: l)
      return
    }
    let mid = (l + r) / 2
    let lc = v + 1
    let rc = v + 2 * (mid - l)
    build(lc, l, mid)
    build(rc, mid, r)
    pull(v, lc, rc)
  }

  /// The items `[start, end)` of bucket `b`.
  @inline(__always)
  private func items(ofBucket b: Int) -> (start: Int, end: Int) {
    let start = b << Self.bucketShift
    return (start, min(start + Self.bucketSize, count))
  }

  /// Recomputes the leaf `v` of bucket `b` from its items, keeping its pending add.
  /// - Complexity: O(B).
  private mutating func summarize(_ v: Int, bucket b: Int) {
    let (start, end) = items(ofBucket: b)
    var m = Int16.max
    var c: Int32 = 0
    var h: Double = 0
    covers.withUnsafeBufferPointer { cv in
      heights.withUnsafeBufferPointer { hv in
        // Two branch-free passes: the minimum, then who attains it.
        for j in start..<end { m = min(m, cv[j]) }
        for j in start..<end {
          let atMin = cv[j] == m
          c += atMin ? 1 : 0
          h += atMin ? hv[j] : 0
        }
      }
    }
    nodes[v].minCover = nodes[v].add + m
    nodes[v].countAtMin = c
    nodes[v].heightAtMin = h
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

  /// The height of item `i`, visible or not.
  /// - Complexity: O(1).
  @inline(__always)
  public func height(at i: Int) -> Double { heights[i] }

  /// Adds `delta` to the cover of every item in `range`; covers must stay ≥ 0.
  /// - Complexity: O(log n + B).
  public mutating func addCover(_ delta: Int32, in range: Range<Int>) {
    guard !range.isEmpty else { return }
    precondition(range.lowerBound >= 0 && range.upperBound <= count)
    precondition(abs(delta) <= Self.maxCover)
    rangeAdd(0, 0, bucketCount, range.lowerBound, range.upperBound, Int16(delta))
  }

  private mutating func rangeAdd(_ v: Int, _ l: Int, _ r: Int, _ ql: Int, _ qr: Int, _ delta: Int16) {
    let start = l << Self.bucketShift
    let end = min(r << Self.bucketShift, count)
    if ql <= start && end <= qr {
      nodes[v].add += delta
      nodes[v].minCover += delta
      return
    }
    if r - l == 1 {
      let lo = max(ql, start)
      let hi = min(qr, end)
      covers.withUnsafeMutableBufferPointer { cv in
        for j in lo..<hi { cv[j] += delta }
      }
      summarize(v, bucket: l)
      return
    }
    let mid = (l + r) / 2
    let lc = v + 1
    let rc = v + 2 * (mid - l)
    let split = mid << Self.bucketShift
    if ql < split { rangeAdd(lc, l, mid, ql, qr, delta) }
    if qr > split { rangeAdd(rc, mid, r, ql, qr, delta) }
    pull(v, lc, rc)
  }

  /// Sets the height of item `i`.
  /// - Complexity: O(log n + B).
  public mutating func setHeight(_ height: Double, at i: Int) {
    precondition(i >= 0 && i < count)
    heights[i] = height
    setHeight(0, 0, bucketCount, i >> Self.bucketShift)
  }

  private mutating func setHeight(_ v: Int, _ l: Int, _ r: Int, _ b: Int) {
    if r - l == 1 {
      summarize(v, bucket: b)
      return
    }
    let mid = (l + r) / 2
    let lc = v + 1
    let rc = v + 2 * (mid - l)
    if b < mid { setHeight(lc, l, mid, b) } else { setHeight(rc, mid, r, b) }
    pull(v, lc, rc)
  }

  /// The node of bucket `b` and the adds pending on the nodes above it, its own included.
  @inline(__always)
  private func leaf(ofBucket b: Int) -> (node: Int, acc: Int32) {
    var v = 0
    var l = 0
    var r = bucketCount
    var acc: Int32 = 0
    while r - l > 1 {
      acc += Int32(nodes[v].add)
      let mid = (l + r) / 2
      if b < mid {
        v += 1
        r = mid
      } else {
        v += 2 * (mid - l)
        l = mid
      }
    }
    return (v, acc + Int32(nodes[v].add))
  }

  /// The cover of item `i` (its number of collapsed ancestors).
  /// - Complexity: O(log n).
  public func cover(of i: Int) -> Int {
    precondition(i >= 0 && i < count)
    return Int(leaf(ofBucket: i >> Self.bucketShift).acc + Int32(covers[i]))
  }

  /// Whether item `i` is visible (no collapsed ancestor).
  /// - Complexity: O(log n).
  public func isVisible(_ i: Int) -> Bool { cover(of: i) == 0 }

  /// The number and summed height of the visible items in `0..<i`: the
  /// visible index and the `top` of item `i` when it is visible.
  /// - Complexity: O(log n + B).
  public func prefix(before i: Int) -> (count: Int, height: Double) {
    precondition(i >= 0 && i <= count)
    if i == count { return (visibleCount, visibleHeight) }
    let found = locate(item: i)
    return (found.index, found.top)
  }

  /// Item `i`'s cover with the number and summed height of the visible
  /// items before it (its visible index and `top` when its cover is 0), in
  /// one walk down the tree and a scan of its bucket.
  /// - Complexity: O(log n + B).
  public func locate(item i: Int) -> (cover: Int, index: Int, top: Double) {
    precondition(i >= 0 && i < count)
    let b = i >> Self.bucketShift
    var v = 0
    var l = 0
    var r = bucketCount
    var above: Int32 = 0  // adds of the strict ancestors of v
    var c = 0
    var h: Double = 0
    while r - l > 1 {
      let mid = (l + r) / 2
      let lc = v + 1
      let rc = v + 2 * (mid - l)
      let acc = above + Int32(nodes[v].add)
      if b < mid {
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
    // An item of the bucket is visible when its stored cover is −(pending adds).
    let visible = -(above + Int32(nodes[v].add))
    let start = b << Self.bucketShift
    covers.withUnsafeBufferPointer { cv in
      heights.withUnsafeBufferPointer { hv in
        for j in start..<i {
          let shown = Int32(cv[j]) == visible
          c += shown ? 1 : 0
          h += shown ? hv[j] : 0
        }
      }
    }
    return (Int(Int32(covers[i]) - visible), c, h)
  }

  /// The number of visible items in `range`.
  /// - Complexity: O(log n + B).
  public func visibleCount(in range: Range<Int>) -> Int {
    prefix(before: range.upperBound).count - prefix(before: range.lowerBound).count
  }

  /// The item at visible index `k` (0-based), or `nil` when `k` is out of range.
  /// - Complexity: O(log n + B).
  public func item(atVisibleIndex k: Int) -> Int? { locate(visibleIndex: k)?.item }

  /// The item at visible index `k` with its `top`, in one walk down the tree
  /// and a scan of its bucket.
  /// - Complexity: O(log n + B).
  public func locate(visibleIndex k: Int) -> (item: Int, top: Double)? {
    guard k >= 0, k < visibleCount else { return nil }
    var v = 0
    var l = 0
    var r = bucketCount
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
    let visible = Int16(truncatingIfNeeded: -(above + Int32(nodes[v].add)))
    let (start, end) = items(ofBucket: l)
    var found = end - 1
    covers.withUnsafeBufferPointer { cv in
      heights.withUnsafeBufferPointer { hv in
        for j in start..<end where cv[j] == visible {
          if k == 0 {
            found = j
            return
          }
          k -= 1
          top += hv[j]
        }
      }
    }
    return (found, top)
  }

  /// The visible item whose span contains `y` (as ``item(atOffset:)``) with
  /// its visible index and `top`, in one walk down the tree and a scan of
  /// its bucket.
  /// - Complexity: O(log n + B).
  public func locate(offset y: Double) -> (item: Int, index: Int, top: Double)? {
    guard y >= 0, y < visibleHeight else { return nil }
    var v = 0
    var l = 0
    var r = bucketCount
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
    let visible = Int16(truncatingIfNeeded: -(above + Int32(nodes[v].add)))
    let (start, end) = items(ofBucket: l)
    // Rounding may leave `y` past the bucket's last span: the last visible
    // item of nonzero height is then the answer.
    var last: (item: Int, index: Int, top: Double) = (end - 1, index, top)
    var hit: (item: Int, index: Int, top: Double)? = nil
    covers.withUnsafeBufferPointer { cv in
      heights.withUnsafeBufferPointer { hv in
        for j in start..<end where cv[j] == visible {
          let h = hv[j]
          if y < h {
            hit = (j, index, top)
            return
          }
          if h > 0 { last = (j, index, top) }
          y -= h
          top += h
          index += 1
        }
      }
    }
    return hit ?? last
  }

  /// The visible item whose span `[top, top + height)` contains `y`; items of
  /// height 0 are never hit. `nil` when `y` is not below the end of the
  /// visible content or `y < 0` (the caller clamps).
  /// - Complexity: O(log n + B).
  public func item(atOffset y: Double) -> Int? { locate(offset: y)?.item }

  /// Bytes held by the index: its nodes, covers and heights (their arrays' storage).
  public var memoryFootprint: Int {
    nodes.capacity * MemoryLayout<Node>.stride + covers.capacity * MemoryLayout<Int16>.stride
      + heights.capacity * MemoryLayout<Double>.stride
  }
}
