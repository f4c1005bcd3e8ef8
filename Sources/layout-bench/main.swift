// layout-bench: how fast `auto` heights are measured, in MB/s of text.
//
// Usage: swift run -c release layout-bench [FILE] [--font FAMILY,...] [--size PX]
// FILE defaults to examples/generated/debian-packages.yaml (make it with
// scripts/make-examples). Prints, for unit `cell`, one line per width: the
// text measured (UTF-8 bytes of every title and detail), the time of one
// full layout, and MB/s (10^6 bytes per second). Then the same in unit
// `font` (Noto Sans, Noto Sans CJK SC, Noto Color Emoji at 14 px by
// default): the first layout (every word shaped, every text segmented),
// layouts at other widths from the caches, a width change through
// OutlineState.setLayout (what the server does for setLayout), and the
// memory the fonts and caches hold. A printed measurement, never a test.

import Foundation
import OutlineFont
import OutlineModel
import OutlineYAML

var options: [String: String] = [:]
var files: [String] = []
var argumentIterator = CommandLine.arguments.dropFirst().makeIterator()
while let a = argumentIterator.next() {
  if a.hasPrefix("--") { options[a] = argumentIterator.next() ?? "" } else { files.append(a) }
}
let families =
  options["--font"]?.split(separator: ",").map(String.init) ?? ["Noto Sans", "Noto Sans CJK SC", "Noto Color Emoji"]
let size = options["--size"].flatMap(Double.init) ?? 14
let path = files.first ?? "examples/generated/debian-packages.yaml"
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
let clock = ContinuousClock()

func seconds(_ d: Duration) -> Double {
  Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
}

func column(_ s: String, _ n: Int) -> String { s.padding(toLength: n, withPad: " ", startingAt: 0) }

/// Lays every item out under `layout` once; returns the sum of heights.
func layoutAll(_ heights: RowHeights) -> Double {
  var total = 0.0
  for p in 0..<outline.count { total += heights.height(at: p, in: outline) }
  return total
}

/// Repeats `body` for at least one second (and three runs); returns the mean time of one run.
func timed(_ body: () -> Void) -> Double {
  var runs = 0
  let start = clock.now
  var elapsed = Duration.zero
  while elapsed < .seconds(1) || runs < 3 {
    body()
    runs += 1
    elapsed = clock.now - start
  }
  return seconds(elapsed) / Double(runs)
}

func row(_ label: String, _ lines: Double, _ perRun: Double) -> String {
  "  \(column(label, 22))  \(column(String(Int(lines)), 9))  "
    + "\(String(format: "%9.1f", perRun * 1000))  \(String(format: "%7.1f", Double(bytes) / perRun / 1e6))"
}

print("layout-bench: \(path)")
print("  \(outline.count) items, \(bytes) bytes of text, Unicode \(UnicodeClusterWidths.unicodeVersion) widths")
print("  unit cell")
print("  \(column("width", 22))  lines      ms/layout   MB/s")
for width in [40.0, 60.0, 120.0] {
  var layout = Layout()
  layout.width = width
  layout.headerHeight = .auto
  let heights = RowHeights(layout: layout)
  var lines = 0.0
  let perRun = timed { lines = layoutAll(heights) }
  print(row(String(Int(width)), lines, perRun))
}

// Unit font: one source for the whole run, as the server keeps one.
let fonts = FontLineBreakers()
let font = FontDescription(families: families, size: size)
func fontLayout(width: Double) -> Layout {
  var layout = Layout()
  layout.unit = .font
  layout.font = font
  layout.lineHeight = 20
  layout.indent = 16
  layout.width = width
  layout.headerHeight = .auto
  return layout
}
print("  unit font: \(families.joined(separator: ", ")) at \(Params.format(size)) px, indent 16 px")
print("  fonts used: \(fonts.lineBreaker(font: font).families.joined(separator: ", "))")
print("  \(column("width", 22))  lines      ms/layout   MB/s")
let first = clock.now
let firstLines = layoutAll(RowHeights(layout: fontLayout(width: 320), lineBreakers: fonts)) / 20
print(row("320, first (shaping)", firstLines, seconds(clock.now - first)))
for width in [240.0, 320.0, 517.0] {
  let heights = RowHeights(layout: fontLayout(width: width), lineBreakers: fonts)
  var lines = 0.0
  let perRun = timed { lines = layoutAll(heights) / 20 }
  print(row(String(Int(width)), lines, perRun))
}
// A width change as the server makes it: every height measured again, the index rebuilt.
var overrides = LayoutOverrides()
overrides.unit = .font
overrides.font = font
overrides.lineHeight = 20
overrides.indent = 16
overrides.width = 320
overrides.headerHeight = .auto
var state = OutlineState(outline: outline, layout: overrides, lineBreakers: fonts)
_ = try? state.expandAll()
var widths = [300.0, 517.0]
let change = timed {
  var o = LayoutOverrides()
  o.width = widths[0]
  widths.swapAt(0, 1)
  state.setLayout(o)
}
print("  width change (OutlineState.setLayout, \(outline.count) items): \(String(format: "%.1f", change * 1000)) ms")
let memory = fonts.memory
print(
  "  memory: fonts \(memory.fontBytes / 1024) KiB (\(memory.faces) faces), caches \(memory.cacheBytes / 1024) KiB"
    + " (\(memory.fontDescriptions) font description)")

enum Params {
  static func format(_ d: Double) -> String { d == d.rounded() ? String(Int(d)) : String(d) }
}
