import Testing

@testable import OutlineModel

@Suite struct VisibilityIndexTests {
  @Test func emptyIndexHasNothingVisible() {
    let index = VisibilityIndex(covers: [], heights: [])
    #expect(index.visibleCount == 0)
    #expect(index.visibleHeight == 0)
    #expect(index.item(atVisibleIndex: 0) == nil)
    #expect(index.item(atOffset: 0) == nil)
  }

  @Test func matchesABruteForceModelUnderRandomRangeUpdates() {
    var rng = SplitMix(seed: 42)
    for n in [1, 2, 3, 7, 64, 200] {
      var covers = (0..<n).map { _ in Int32(rng.next() % 3) }
      var heights = (0..<n).map { _ in Double(rng.next() % 4) }
      var index = VisibilityIndex(covers: covers, heights: heights)
      for _ in 0..<300 {
        switch rng.next() % 3 {
        case 0:
          let a = Int(rng.next() % UInt64(n))
          let b = a + Int(rng.next() % UInt64(n - a + 1))
          let delta: Int32 = rng.next() % 2 == 0 ? 1 : -1
          // Keep covers non-negative, as collapsing and expanding do.
          if delta < 0 && (a..<b).contains(where: { covers[$0] == 0 }) { continue }
          index.addCover(delta, in: a..<b)
          for i in a..<b { covers[i] += delta }
        case 1:
          let i = Int(rng.next() % UInt64(n))
          heights[i] = Double(rng.next() % 5)
          index.setHeight(heights[i], at: i)
        default:
          break
        }
        let visible = (0..<n).filter { covers[$0] == 0 }
        #expect(index.visibleCount == visible.count)
        #expect(index.visibleHeight == visible.reduce(0) { $0 + heights[$1] })
        for i in 0...n {
          let before = visible.filter { $0 < i }
          let p = index.prefix(before: i)
          #expect(p.count == before.count)
          #expect(p.height == before.reduce(0) { $0 + heights[$1] })
        }
        for i in 0..<n { #expect(index.cover(of: i) == Int(covers[i])) }
        for (k, item) in visible.enumerated() { #expect(index.item(atVisibleIndex: k) == item) }
        #expect(index.item(atVisibleIndex: visible.count) == nil)
        var top: Double = 0
        for item in visible {
          if heights[item] > 0 {
            #expect(index.item(atOffset: top) == item)
            #expect(index.item(atOffset: top + heights[item] - 0.5) == item)
          }
          top += heights[item]
        }
        #expect(index.item(atOffset: top) == nil)
      }
    }
  }
}
