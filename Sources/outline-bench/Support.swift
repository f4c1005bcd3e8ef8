import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Monotonic time in nanoseconds.
@inline(__always)
func nowNanos() -> UInt64 {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// A small deterministic generator (SplitMix64), so every run draws the same offsets.
struct SplitMix: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

func median(_ xs: [Double]) -> Double {
  guard !xs.isEmpty else { return .nan }
  let s = xs.sorted()
  return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

func percentile(_ xs: [Double], _ p: Double) -> Double {
  guard !xs.isEmpty else { return .nan }
  let s = xs.sorted()
  let i = min(s.count - 1, Int((p / 100 * Double(s.count)).rounded(.up)) - 1)
  return s[max(0, i)]
}

/// Runs `body` (which performs `ops` operations) `repeats` times and returns
/// the median time per operation, in nanoseconds.
func timePerOp(repeats: Int, ops: Int, _ body: () -> Void) -> Double {
  var samples: [Double] = []
  for _ in 0..<repeats {
    let t0 = nowNanos()
    body()
    samples.append(Double(nowNanos() - t0) / Double(ops))
  }
  return median(samples)
}

/// Keeps a value alive so the optimiser cannot drop the work that made it.
@inline(never)
func sink<T>(_ x: T) { withExtendedLifetime(x) {} }

/// Peak resident set of a process, in bytes (`VmHWM` of `/proc/<pid>/status`).
func peakRSS(pid: Int32 = getpid()) -> Int? {
  guard let s = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
  for line in s.split(separator: "\n") where line.hasPrefix("VmHWM:") {
    let kb = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) }
    return kb.map { $0 * 1024 }
  }
  return nil
}

// MARK: Formatting

func fmtTime(_ ns: Double) -> String {
  if ns.isNaN { return "–" }
  if ns < 1_000 { return String(format: "%.0f ns", ns) }
  if ns < 1_000_000 { return String(format: "%.2f µs", ns / 1_000) }
  if ns < 1_000_000_000 { return String(format: "%.1f ms", ns / 1_000_000) }
  return String(format: "%.2f s", ns / 1_000_000_000)
}

func fmtRatio(_ x: Double) -> String { x.isNaN || x.isInfinite ? "–" : String(format: "%.2f×", x) }

func fmtCount(_ n: Int) -> String {
  if n >= 1_000_000 && n % 1_000_000 == 0 { return "\(n / 1_000_000)M" }
  if n >= 1_000 && n % 1_000 == 0 { return "\(n / 1_000)k" }
  return "\(n)"
}

func fmtBytes(_ b: Double) -> String {
  if b < 1024 { return String(format: "%.0f B", b) }
  if b < 1_048_576 { return String(format: "%.1f KiB", b / 1024) }
  if b < 1_073_741_824 { return String(format: "%.1f MiB", b / 1_048_576) }
  return String(format: "%.2f GiB", b / 1_073_741_824)
}

/// One table: a title, a header and rows of cells, printed with aligned columns.
struct Table {
  var title: String
  var header: [String]
  var rows: [[String]] = []
  var notes: [String] = []

  func render() -> String {
    var widths = header.map(\.count)
    for r in rows { for (i, c) in r.enumerated() where i < widths.count { widths[i] = max(widths[i], c.count) } }
    func line(_ cells: [String]) -> String {
      "| "
        + cells.enumerated().map { i, c in c + String(repeating: " ", count: widths[i] - c.count) }
        .joined(separator: " | ") + " |"
    }
    var out = "### \(title)\n\n" + line(header) + "\n"
    out += "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|\n"
    for r in rows { out += line(r + Array(repeating: "", count: max(0, header.count - r.count))) + "\n" }
    for n in notes { out += "\n" + n + "\n" }
    return out + "\n"
  }
}

func progressLog(_ s: String) {
  FileHandle.standardError.write(Data(("· " + s + "\n").utf8))
}
