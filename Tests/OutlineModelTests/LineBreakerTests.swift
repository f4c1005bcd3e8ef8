import Testing

@testable import OutlineModel

/// A line breaker that puts each word (text between spaces) on a line of its
/// own, whatever the width: enough to see heights and drawn lines go through the seam.
private struct WordPerLine: LineBreaker {
  func lineCount(utf8: UnsafeBufferPointer<UInt8>, width: Double) -> Int {
    lines(utf8: utf8, width: width).count
  }

  func lines(utf8: UnsafeBufferPointer<UInt8>, width: Double) -> [Range<Int>] {
    var out: [Range<Int>] = []
    var start = 0
    for (i, b) in utf8.enumerated() where b == 0x20 {
      out.append(start..<i)
      start = i + 1
    }
    out.append(start..<utf8.count)
    return out
  }

  func drawnText(_ line: Substring) -> String { line.uppercased() }
}

/// Gives `WordPerLine` in unit `font` and the cell measurer otherwise; counts its calls.
private final class FontOnly: LineBreakerSource, @unchecked Sendable {
  var made: [LayoutUnit] = []
  func lineBreaker(for layout: Layout) -> any LineBreaker {
    made.append(layout.unit)
    return layout.unit == .font ? WordPerLine() : CellLineBreakers().lineBreaker(for: layout)
  }
}

@Suite struct LineBreakerTests {
  @Test func textMeasurerLinesAreByteRangesOfTheText() {
    let m = TextMeasurer()
    for (text, width) in [("hello world again", 8.0), ("中文字。abc def", 6), ("a\tb c\nd", 3), ("é é é", 2)] {
      let ranges = Array(text.utf8).withUnsafeBufferPointer { m.lines(utf8: $0, width: width) }
      let bytes = Array(text.utf8)
      #expect(ranges.map { String(decoding: bytes[$0], as: UTF8.self) } == m.lines(text, width: width).map(String.init))
      #expect(ranges.count == m.lineCount(text, width: width))
    }
  }

  @Test func drawnTextExpandsTabsToTheNextStop() {
    let m = TextMeasurer(tabSize: 4)
    #expect(m.drawnText("a\tb") == "a   b")
    #expect(m.drawnText("abcd\te") == "abcd    e")
    #expect(m.drawnText("中\tx") == "中  x")
    #expect(m.drawnLines("key:\tvalue words", width: 9) == ["key:", "value", "words"])
  }

  @Test func heightsAndDrawnLinesGoThroughTheLayoutsLineBreaker() {
    let source = FontOnly()
    var overrides = LayoutOverrides()
    overrides.unit = .font
    overrides.font = FontDescription(families: ["Any"], size: 14)
    overrides.lineHeight = 20
    overrides.width = 1000
    let outline = Outline(
      document: OutlineDocument(groups: [
        Fixtures.group("G", id: "g", expanded: true, rows: [Fixtures.row("one two three", detail: "four five")])
      ]))
    var state = OutlineState(outline: outline, layout: overrides, lineBreakers: source)
    #expect(state.height(1) == 20 * 5)
    #expect(state.lineBreaker is WordPerLine)
    let heights = RowHeights(layout: state.layout, lineBreaker: state.lineBreaker)
    #expect(heights.drawnLines("one two", depth: 1, atLeastOne: true) == ["ONE", "TWO"])
    // Back to cells: the source makes the cell measurer, and the row is one line of each text.
    var cells = LayoutOverrides()
    cells.unit = .cell
    cells.lineHeight = 1
    state.setLayout(cells)
    #expect(state.lineBreaker is TextMeasurer)
    #expect(state.height(1) == 2)
    #expect(source.made == [.font, .cell])
  }

  @Test func drawnLinesApplyMaxLinesAndTheAtLeastOneRule() {
    var layout = Layout()
    layout.width = 5
    layout.maxLines = 2
    let heights = RowHeights(layout: layout)
    #expect(heights.drawnLines("aaa bbb ccc ddd", depth: 0, atLeastOne: false) == ["aaa", "bbb"])
    #expect(heights.drawnLines(nil, depth: 0, atLeastOne: true) == [""])
    #expect(heights.drawnLines("", depth: 0, atLeastOne: false) == [])
  }

  @Test func cellLineBreakersMeasureUnitFontAsPixels() {
    var layout = Layout()
    layout.unit = .font
    layout.narrowWidth = 7
    layout.wideWidth = 14
    layout.width = 21
    let breaker = CellLineBreakers().lineBreaker(for: layout)
    #expect(breaker.lineCount("abc def", width: 21) == 2)
    #expect(breaker.lineCount("中文", width: 21) == 2)
  }

  @Test func aFontLayoutLacksFontThenLineHeight() {
    var o = LayoutOverrides()
    #expect(o.missingFontField == nil)
    o.unit = .font
    #expect(o.missingFontField == "font")
    o.font = FontDescription(families: ["Noto Sans"], size: 14)
    #expect(o.missingFontField == "lineHeight")
    o.lineHeight = 20
    #expect(o.missingFontField == nil)
    o.unit = .px
    o.font = nil
    #expect(o.missingFontField == nil)
  }

  @Test func theFontIsOneFieldThatLaterLayoutsReplace() {
    var file = LayoutOverrides()
    file.font = FontDescription(families: ["A", "B"], size: 12, weight: 700, style: .italic)
    var host = LayoutOverrides()
    host.font = FontDescription(families: ["C"], size: 16)
    #expect(file.merged(with: host).font == host.font)
    #expect(file.merged(with: LayoutOverrides()).font == file.font)
    #expect(Layout().applying(file).font?.weight == 700)
    #expect(Layout().font == nil)
  }
}
