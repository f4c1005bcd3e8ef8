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

/// The bucketed index against plain arrays of covers and heights, at sizes
/// around the bucket size, with every query checked after every step.
@Suite struct VisibilityIndexDifferentialTests {
  /// The naive model: the index's answers, computed by scanning.
  struct Model {
    var covers: [Int32]
    var heights: [Double]

    var visible: [Int] { covers.indices.filter { covers[$0] == 0 } }

    func prefix(before i: Int) -> (count: Int, height: Double) {
      var c = 0
      var h: Double = 0
      for j in 0..<i where covers[j] == 0 {
        c += 1
        h += heights[j]
      }
      return (c, h)
    }
  }

  static let sizes: [Int] = {
    let b = VisibilityIndex.bucketSize
    return [0, 1, 2, b - 1, b, b + 1, 2 * b - 1, 2 * b + 1, 3 * b, 1000]
  }()

  @Test(arguments: sizes)
  func matchesPlainArraysUnderRandomUpdates(n: Int) {
    var rng = SplitMix(seed: UInt64(n) &* 7919 &+ 1)
    var model = Model(
      covers: (0..<n).map { _ in Int32(rng.next() % 4 == 0 ? rng.next() % 3 : 0) },
      heights: (0..<n).map { _ in Double(rng.next() % 4) })
    var index = VisibilityIndex(covers: model.covers, heights: model.heights)
    check(index, model, &rng)
    let steps = n >= 1000 ? 150 : 400
    for _ in 0..<steps {
      guard n > 0 else { break }
      switch rng.next() % 4 {
      case 0, 1:
        // Short ranges (inside a bucket) as often as long ones.
        let a = Int(rng.next() % UInt64(n))
        let span = rng.next() % 2 == 0 ? Int(rng.next() % 5) : Int(rng.next() % UInt64(n - a + 1))
        let b = min(n, a + span)
        let magnitude = Int32(1 + rng.next() % 3)
        var delta = rng.next() % 2 == 0 ? magnitude : -magnitude
        // Keep covers non-negative, as collapsing and expanding do.
        if delta < 0, let low = model.covers[a..<b].min(), low + delta < 0 { delta = -low }
        if delta == 0 { delta = magnitude }
        index.addCover(delta, in: a..<b)
        for i in a..<b { model.covers[i] += delta }
      case 2:
        let i = Int(rng.next() % UInt64(n))
        model.heights[i] = Double(rng.next() % 5) / 2
        index.setHeight(model.heights[i], at: i)
      default:
        // Uncover a random range completely, so that many items show.
        let a = Int(rng.next() % UInt64(n))
        let b = a + Int(rng.next() % UInt64(n - a + 1))
        for i in a..<b where model.covers[i] > 0 {
          index.addCover(-model.covers[i], in: i..<(i + 1))
          model.covers[i] = 0
        }
      }
      check(index, model, &rng)
    }
  }

  func check(_ index: VisibilityIndex, _ model: Model, _ rng: inout SplitMix) {
    let n = model.covers.count
    let visible = model.visible
    #expect(index.count == n)
    #expect(index.visibleCount == visible.count)
    #expect(index.visibleHeight == model.prefix(before: n).height)
    var before = (count: 0, height: 0.0)
    for i in 0..<n {
      #expect(index.cover(of: i) == Int(model.covers[i]))
      #expect(index.isVisible(i) == (model.covers[i] == 0))
      #expect(index.height(at: i) == model.heights[i])
      let found = index.locate(item: i)
      #expect(found.cover == Int(model.covers[i]) && found.index == before.count && found.top == before.height)
      let p = index.prefix(before: i)
      #expect(p.count == before.count && p.height == before.height)
      if model.covers[i] == 0 {
        before.count += 1
        before.height += model.heights[i]
      }
    }
    let end = index.prefix(before: n)
    #expect(end.count == before.count && end.height == before.height)
    for _ in 0..<min(20, n) {
      let a = Int.random(in: 0...n, using: &rng)
      let b = Int.random(in: a...n, using: &rng)
      #expect(index.visibleCount(in: a..<b) == visible.filter { (a..<b).contains($0) }.count)
    }
    var top: Double = 0
    for (k, item) in visible.enumerated() {
      let found = index.locate(visibleIndex: k)
      #expect(found?.item == item && found?.top == top)
      let h = model.heights[item]
      if h > 0 {
        for y in [top, top + h / 2, top + h - 0.25] {
          let hit = index.locate(offset: y)
          #expect(hit?.item == item && hit?.index == k && hit?.top == top)
        }
      }
      top += h
    }
    #expect(index.locate(visibleIndex: visible.count) == nil)
    #expect(index.locate(visibleIndex: -1) == nil)
    #expect(index.locate(offset: top) == nil)
    #expect(index.locate(offset: -1) == nil)
    #expect(index.memoryFootprint >= n * (MemoryLayout<Double>.stride + MemoryLayout<Int16>.stride))
  }
}
