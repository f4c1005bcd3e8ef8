// layout-bench: how fast `auto` heights are measured, in MB/s of text.
//
// Usage: swift run -c release layout-bench [FILE]
// FILE defaults to examples/generated/debian-packages.yaml (make it with
// scripts/make-examples). Prints one line per width: the text measured
// (UTF-8 bytes of every title and detail), the time of one full layout, and
// MB/s (10^6 bytes per second). A printed measurement, never a test.

import Foundation
import OutlineModel
import OutlineYAML

let path = CommandLine.arguments.dropFirst().first ?? "examples/generated/debian-packages.yaml"
guard let data = FileManager.default.contents(atPath: path) else {
  FileHandle.standardError.write(Data("layout-bench: cannot read \(path) (run scripts/make-examples)\n".utf8))
  exit(1)
}
guard let outline = try OutlineLoader.loadOutline(.bytes([UInt8](data))).outline else {
  FileHandle.standardError.write(Data("layout-bench: \(path) has errors\n".utf8))
  exit(1)
}
let bytes = (0..<outline.count).reduce(0) {
  $0 + outline.title(at: $1).utf8.count + (outline.detail(at: $1)?.utf8.count ?? 0)
}

print("layout-bench: \(path)")
print("  \(outline.count) items, \(bytes) bytes of text, Unicode \(UnicodeClusterWidths.unicodeVersion) widths")
print("  width   lines      ms/layout   MB/s")
let clock = ContinuousClock()
for width in [40.0, 60.0, 120.0] {
  var layout = Layout()
  layout.width = width
  layout.headerHeight = .auto
  let heights = RowHeights(layout: layout)
  var lines = 0.0
  var runs = 0
  let start = clock.now
  var elapsed = Duration.zero
  // Repeat the whole layout for at least one second.
  while elapsed < .seconds(1) || runs < 3 {
    lines = 0
    for p in 0..<outline.count { lines += heights.height(at: p, in: outline) }
    runs += 1
    elapsed = clock.now - start
  }
  let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
  let perRun = seconds / Double(runs)
  let mbps = Double(bytes) / perRun / 1e6
  print(
    "  \(String(Int(width)).padding(toLength: 6, withPad: " ", startingAt: 0))  "
      + "\(String(Int(lines)).padding(toLength: 9, withPad: " ", startingAt: 0))  "
      + "\(String(format: "%9.1f", perRun * 1000))  \(String(format: "%6.1f", mbps))")
}
