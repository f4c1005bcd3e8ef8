import Foundation
import OutlineModel
import OutlineYAML
import Testing

/// A generated outline: `groups` groups of `rows` rows, each with data.
func bigOutline(groups: Int, rows: Int) -> [UInt8] {
  var s = "title: Big\nlayout: {rowHeight: auto}\ngroups:\n"
  s.reserveCapacity(groups * rows * 120)
  for g in 0..<groups {
    s += "  - id: g\(g)\n    title: Group \(g)\n    expanded: \(g % 2 == 0)\n    rows:\n"
    for r in 0..<rows {
      s += "      - id: g\(g)r\(r)\n        title: \"Row \(r) of \(g)\"\n"
      s += "        detail: Some detail text that wraps, for row \(r)\n"
      s += "        active: \(r % 3 != 0)\n        data: {n: \(r), tags: [a, b]}\n"
    }
  }
  return Array(s.utf8)
}

@Suite struct BigFileTests {
  @Test func loadsABigFile() throws {
    let bytes = bigOutline(groups: 200, rows: 100)
    var fractions: [Double] = []
    let result = try OutlineLoader.load(bytes, progress: { fractions.append($0) })
    #expect(result.diagnostics.map(render) == [])
    let doc = try #require(result.document)
    #expect(doc.groups.count == 200)
    #expect(doc.groups.allSatisfy { $0.rows.count == 100 })
    let row = doc.groups[199].rows[99]
    #expect(row.id == "g199r99")
    #expect(row.title == "Row 99 of 199")
    #expect(row.active == false)
    #expect(row.data == .object([("n", .int(99)), ("tags", .array([.string("a"), .string("b")]))]))
    #expect(row.source.start == SourcePosition(line: 3 + 199 * (4 + 100 * 5) + 4 + 99 * 5, column: 8))
    // Progress rises, ends at 1, and is reported at most about 100 times.
    #expect(fractions.count <= 102)
    #expect(fractions.last == 1)
    #expect(zip(fractions, fractions.dropFirst()).allSatisfy { $0 <= $1 })
  }

  @Test func cancellationStopsTheLoad() {
    let bytes = bigOutline(groups: 50, rows: 100)
    var polls = 0
    #expect(throws: CancellationError.self) {
      try OutlineLoader.load(
        bytes,
        shouldCancel: {
          polls += 1
          return polls > 2
        })
    }
  }

  /// Set `OUTLINE_BENCH_MB` to time a file of that many megabytes (use a release build).
  @Test(.enabled(if: ProcessInfo.processInfo.environment["OUTLINE_BENCH_MB"] != nil))
  func benchmark() throws {
    let megabytes = Int(ProcessInfo.processInfo.environment["OUTLINE_BENCH_MB"] ?? "") ?? 50
    let rowsPerGroup = 1000
    let groups = megabytes * 1_000_000 / (rowsPerGroup * 150)
    let bytes = bigOutline(groups: groups, rows: rowsPerGroup)
    if let path = ProcessInfo.processInfo.environment["OUTLINE_BENCH_FILE"] {
      try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
    let clock = ContinuousClock()
    var result: LoadResult?
    let elapsed = try clock.measure { result = try OutlineLoader.load(bytes) }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    print("loaded \(bytes.count) bytes in \(seconds) s: \(Double(bytes.count) / seconds / 1e6) MB/s")
    #expect(result?.document?.groups.count == groups)
  }
}
