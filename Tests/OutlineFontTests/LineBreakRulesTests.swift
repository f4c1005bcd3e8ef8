import CICUShim
import Testing

@testable import OutlineFont

/// Break opportunities inside a word (``LineBreakRules``).
@Suite struct LineBreakRulesTests {
  /// The places a break is allowed in `word`, as the text before and after each.
  func breaks(_ word: String) -> [String] {
    let units = Array(word.utf16)
    var marks = [Bool](repeating: false, count: units.count + 1)
    let ascii = word.utf8.allSatisfy { $0 < 0x80 }
    let iterator = ascii ? nil : outlineLineIterator
    units.withUnsafeBufferPointer {
      LineBreakRules.markBreaks($0, ascii: ascii, lineIterator: iterator, into: &marks)
    }
    return marks.indices.filter { marks[$0] }.map {
      String(decoding: units[..<$0], as: UTF16.self) + "|" + String(decoding: units[$0...], as: UTF16.self)
    }
  }

  @Test func asciiPairsFollowTheBrowsersTable() {
    #expect(breaks("a/b") == [])
    #expect(breaks("and/or") == [])
    #expect(breaks("x-y") == ["x-|y"])
    #expect(breaks("-5") == [])
    #expect(breaks("ABC-123") == ["ABC-|123"])
    #expect(breaks("x-1") == ["x-|1"])
    #expect(breaks("(-1)") == [])
    #expect(breaks("a?b") == ["a?|b"])
    #expect(breaks("what?!") == [])
    #expect(breaks("f(x)(y)") == ["f(x)|(y)"])
    #expect(breaks("10.5") == [])
    #expect(breaks("a--b") == ["a-|-b", "a--|b"])
  }

  @Test func outsideAsciiICUDecides() {
    #expect(breaks("中文字") == ["中|文字", "中文|字"])
    // No break before closing punctuation; small kana and ー may start a line (lb=normal).
    #expect(breaks("字。") == [])
    #expect(breaks("ソフトー") == ["ソ|フトー", "ソフ|トー", "ソフト|ー"])
    #expect(breaks("a\u{A0}b") == [])
  }

  @Test func quotationMarksBetweenEastAsianCharactersMayBreak() {
    #expect(breaks("为“工具”菜") == ["为|“工具”菜", "为“工|具”菜", "为“工具”|菜"])
    // Not next to a letter that is not East Asian.
    #expect(breaks("a“b") == [])
  }
}

/// One ICU line iterator for the tests, as a shaper keeps one.
nonisolated(unsafe) let outlineLineIterator = outline_icu_line_iterator(LineBreakRules.locale)
