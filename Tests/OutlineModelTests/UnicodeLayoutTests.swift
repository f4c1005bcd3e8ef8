import Testing

@testable import OutlineModel

/// Wrapping real text with the Unicode width table (PROTOCOL §5, §8 "Layout").
@Suite struct UnicodeLayoutTests {
  let m = TextMeasurer(widths: UnicodeClusterWidths())

  /// The cases the contract pins, in cells: text, width, lines.
  @Test(arguments: [
    (String(repeating: "中", count: 10), 10.0, 2),
    ("ab " + String(repeating: "中", count: 10), 12.0, 2),
    (String(repeating: "👨\u{200D}🦲", count: 5), 10.0, 1),
    (String(repeating: "e\u{301}", count: 10), 10.0, 1),
    (String(repeating: "é", count: 10), 10.0, 1),
    ("key:\tvalue", 12.0, 2),
    (String(repeating: "x", count: 25), 10.0, 3),
    ("abc\n", 10.0, 2),
  ])
  func mustHoldCases(text: String, width: Double, lines: Int) {
    #expect(m.lineCount(text, width: width) == lines)
  }

  @Test func clusterWidths() {
    #expect(m.width(of: String(repeating: "中", count: 10)[...]) == 20)
    #expect(m.width(of: String(repeating: "👨\u{200D}🦲", count: 5)[...]) == 10)
    #expect(m.width(of: String(repeating: "e\u{301}", count: 10)[...]) == 10)
    #expect(m.width(of: "🇫🇷🇩🇪") == 4)
    #expect(m.width(of: "👍🏽1\u{FE0F}\u{20E3}") == 4)
    #expect(m.width(of: "☺☺") == 2)
    #expect(m.width(of: "☺\u{FE0F}") == 2)
    #expect(m.width(of: "a\u{200B}\u{2060}b") == 2)
    #expect(m.width(of: "ｶﾀｶﾅ") == 4)
  }

  @Test(arguments: [
    // Hard breaks; a trailing one adds a line.
    ("中\r\n文\u{2028}字\n", 10.0, ["中", "文", "字", ""]),
    // Between wide characters, and before/after a wide one next to Latin.
    ("中文字", 4.0, ["中文", "字"]),
    ("ab中文cd", 5.0, ["ab中", "文cd"]),
    ("かなカナ한글", 4.0, ["かな", "カナ", "한글"]),
    // A Latin word is not cut when it fits on the next line.
    ("中文 hello", 6.0, ["中文", "hello"]),
    // Never inside a cluster: a flag or ZWJ sequence stays whole.
    ("🇫🇷🇫🇷🇫🇷", 5.0, ["🇫🇷🇫🇷", "🇫🇷"]),
    ("👨\u{200D}👩\u{200D}👧x", 2.0, ["👨\u{200D}👩\u{200D}👧", "x"]),
    ("e\u{301}e\u{301}e\u{301}", 2.0, ["e\u{301}e\u{301}", "e\u{301}"]),
    // Emoji are wide, so they are break opportunities.
    ("ok😀ok", 3.0, ["ok", "😀", "ok"]),
    ("a😀b", 3.0, ["a😀", "b"]),
    // Right-to-left text wraps in logical order like any narrow script.
    ("שלום עולם", 6.0, ["שלום", "עולם"]),
    ("مرحبا بالعالم", 8.0, ["مرحبا", "بالعالم"]),
  ])
  func wrapsUnicodeText(text: String, width: Double, expected: [String]) {
    #expect(m.lines(text, width: width).map(String.init) == expected)
    #expect(m.lineCount(text, width: width) == expected.count)
  }

  @Test(arguments: [
    // The ideograph before a closing mark moves down with it.
    ("中文字。", 6.0, ["中文", "字。"]),
    ("一二三，四", 6.0, ["一二", "三，四"]),
    ("（中文）", 6.0, ["（中", "文）"]),
    ("「中文」", 6.0, ["「中", "文」"]),
    ("中文、中文", 4.0, ["中", "文、", "中文"]),
    ("中文！", 4.0, ["中", "文！"]),
    // Fits: nothing moves.
    ("中文。", 6.0, ["中文。"]),
    // Unavoidable: nothing but closing marks, or a mark after a space.
    ("。。。", 4.0, ["。。", "。"]),
    ("中 。", 3.0, ["中", "。"]),
  ])
  func closingPunctuationDoesNotStartALine(text: String, width: Double, expected: [String]) {
    #expect(m.lines(text, width: width).map(String.init) == expected)
  }

  @Test func tabsAdvanceToTheNextStopAfterWideText() {
    #expect(m.width(of: "中\tb") == 9)
    #expect(m.width(of: "中文字测\tb") == 17)
    #expect(m.lines("中\tvalue", width: 12).map(String.init) == ["中", "value"])
  }

  @Test func pixelAdvances() {
    let px = TextMeasurer(widths: UnicodeClusterWidths(), narrowWidth: 7, wideWidth: 13, tabSize: 4)
    #expect(px.width(of: "a中😀") == 33)
    #expect(px.lineCount("中中中", width: 26) == 2)
    #expect(px.lineCount("中中", width: 26) == 1)
    #expect(px.width(of: "中\t") == 28)
  }

  @Test func rowHeightsUseTheUnicodeTableByDefault() {
    var layout = Layout()
    layout.width = 14
    layout.indent = 2
    layout.padding = Padding(top: 1, bottom: 1, left: 1, right: 1)
    let h = RowHeights(layout: layout)
    // Depth 1: wraps at 14 − 2 − 2 = 10 cells.
    #expect(h.lines(String(repeating: "中", count: 10), depth: 1, atLeastOne: true) == 2)
    #expect(h.lines(String(repeating: "中", count: 5), depth: 1, atLeastOne: true) == 1)
    layout.maxLines = 1
    #expect(RowHeights(layout: layout).lines(String(repeating: "中", count: 20), depth: 1, atLeastOne: true) == 1)
  }
}
