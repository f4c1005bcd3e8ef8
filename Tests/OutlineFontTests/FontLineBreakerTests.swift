import OutlineModel
import Testing

@testable import OutlineFont

/// Properties every font layout keeps, on hand-written and generated texts
/// at many widths: what a browser's breaking must satisfy whatever it measures.
@Suite struct FontLineBreakerTests {
  let breaker = fontSource.lineBreaker(font: crossCheckFont)

  static let texts: [String] = [
    "Real-time strategy game of ancient warfare",
    "A very long word: Donaudampfschifffahrtsgesellschaftskapitän, and a URL https://example.org/a/b/c?d=e",
    "中文、中文。「引用」（括弧）と…《书名》ソフトウェアのインストールとアップデート",
    "コマンドラインプログラムである 'cabal' は、Haskell のライブラリ群を管理します。",
    "Party 🎉🎉🎉 time ❤️ ☺️ 👨‍👩‍👧 🇫🇷 done and 1️⃣ 👍🏽 more",
    "مرحبا بالعالم هذا نص عربي طويل للاختبار and שלום עולם",
    "key:\tvalue\twith\ttabs and   runs of    spaces",
    "First paragraph of the description.\n\nSecond one, after an empty line.\n * a list item\n * another\n",
    "soft\u{AD}hyphen\u{AD}ated\u{AD}words and x\u{3000}\u{3000}y",
    "  leading spaces, trailing spaces   ",
    "ABC-123 -5 a/b/c (x)(y) what?yes",
  ]

  /// Pseudo-random texts from an alphabet of letters, CJK, punctuation, spaces, tabs and line feeds.
  static let generated: [String] = {
    let alphabet = Array("ab cd efgh ijk lmnop 中文字、。「」（）かなカナー 😀 \t\n-/.,?!'\"\u{AD}é")
    var seed: UInt64 = 0x2545_F491_4F6C_DD1D
    return (0..<80).map { _ in
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let n = Int(seed >> 57)
      return String(
        (0..<n).map { _ -> Character in
          seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
          return alphabet[Int(seed >> 33) % alphabet.count]
        })
    }
  }()

  static let widths: [Double] = [1, 13, 40, 73.5, 120, 173, 240, 517, 2000]

  @Test func fewerLinesAsTheWidthGrows() {
    for text in Self.texts + Self.generated {
      let counts = Self.widths.map { breaker.lineCount(text, width: $0) }
      #expect(counts == counts.sorted(by: >), "\(text.debugDescription): \(counts)")
    }
  }

  @Test func linesRejoinedAreTheTextLessTheBreaks() {
    for text in Self.texts + Self.generated {
      let bytes = Array(text.utf8)
      for width in Self.widths {
        let ranges = bytes.withUnsafeBufferPointer { breaker.lines(utf8: $0, width: width) }
        #expect(ranges.count == breaker.lineCount(text, width: width))
        // Between lines only what a break drops: spaces, tabs, ideographic
        // spaces, at most one line feed (a CR before it).
        var at = 0
        for (i, r) in ranges.enumerated() {
          let gap = String(decoding: bytes[at..<r.lowerBound], as: UTF8.self)
          let feeds = gap.unicodeScalars.filter { $0 == "\n" }.count
          let dropped = gap.unicodeScalars.allSatisfy { [" ", "\t", "\u{3000}", "\n", "\r"].contains($0) }
          #expect(
            dropped && feeds <= 1 && (i > 0 || gap.isEmpty),
            "\(text.debugDescription) at \(width): \(gap.debugDescription)")
          #expect(r.lowerBound >= at && r.upperBound <= bytes.count)
          at = r.upperBound
        }
        let tail = String(decoding: bytes[at...], as: UTF8.self)
        #expect(tail.unicodeScalars.allSatisfy { [" ", "\t", "\u{3000}", "\n", "\r"].contains($0) })
      }
    }
  }

  /// Measured on its own, each line fits, unless it is one grapheme cluster.
  /// Lines the browser measures in their context are left out: a closing
  /// bracket may shrink at a line's end, a soft hyphen adds a hyphen, fullwidth
  /// punctuation collapses next to punctuation on the next line, and a word in
  /// a joining script cut between clusters keeps its joined forms (Chromium
  /// draws `حب` on a 13 px line, as here).
  @Test func eachLineFitsUnlessItIsOneCluster() {
    for text in Self.texts + Self.generated {
      for width in Self.widths {
        for line in breaker.lines(text, width: width) {
          let s = String(line)
          guard s.count > 1, let last = s.unicodeScalars.last, last != "\u{AD}",
            !s.utf16.contains(where: PunctuationClass.mayCollapse),
            !s.unicodeScalars.contains(where: { (0x0600...0x06FF).contains($0.value) })
          else { continue }
          #expect(
            breaker.advance(of: s) <= width + 1.0 / 64, "\(s.debugDescription) at \(width) in \(text.debugDescription)")
        }
      }
    }
  }

  @Test func cachedAndUncachedAndPairTablesAgree() {
    let cold = FontLineBreakers().lineBreaker(font: crossCheckFont)
    let byHarfBuzz = FontLineBreakers().lineBreaker(font: crossCheckFont)
    byHarfBuzz.shapesByPairs = false
    for text in Self.texts + Self.generated {
      for width in Self.widths {
        let first = cold.lines(text, width: width)
        #expect(cold.lines(text, width: width) == first)
        #expect(byHarfBuzz.lines(text, width: width) == first)
        #expect(breaker.lines(text, width: width) == first)
      }
    }
  }

  @Test func browserRulesForHardBreaksAndEmptyTexts() {
    #expect(breaker.lineCount("", width: 100) == 1)
    #expect(breaker.lineCount("abc\n", width: 100) == 1)
    #expect(breaker.lineCount("abc\n\n", width: 100) == 2)
    #expect(breaker.lineCount("\n", width: 100) == 1)
    #expect(breaker.lineCount("a\r\nb", width: 100) == 2)
    #expect(breaker.lines("a\r\nb", width: 100).map(String.init) == ["a", "b"])
    #expect(breaker.lineCount("a\u{2028}b\u{2029}c\rd", width: 100) == 1)
  }

  @Test func tabsAdvanceToTheNextStopOfSpaces() {
    // A tab stop every 8 spaces of the first family (8 × 3.64 px).
    let space = breaker.advance(of: "a b") - breaker.advance(of: "ab")
    #expect(abs(breaker.advance(of: "\tx") - (8 * space + breaker.advance(of: "x"))) < 0.001)
    let four = fontSource.lineBreaker(font: crossCheckFont, tabSize: 4)
    #expect(abs(four.advance(of: "\tx") - (4 * space + four.advance(of: "x"))) < 0.001)
    // A tab is drawn as the spaces closest to its advance: 4 spaces from the line's start, 2 after an `a`.
    #expect(four.drawnText("\tb") == "    b")
    #expect(four.drawnText("a\tb") == "a  b")
    #expect(breaker.drawnText("no tab") == "no tab")
  }

  @Test func memoryIsReportedAndCachesCanBeEmptied() {
    let source = FontLineBreakers()
    let b = source.lineBreaker(font: crossCheckFont)
    let before = b.lines(Self.texts[1], width: 120)
    #expect(source.memory.faces == 3)
    #expect(source.memory.fontBytes > 0 && source.memory.cacheBytes > 0)
    #expect(source.memory.fontDescriptions == 1)
    b.removeCaches()
    #expect(b.lines(Self.texts[1], width: 120) == before)
  }

  @Test func otherUnitsGoToTheCellMeasurer() {
    var layout = Layout()
    layout.width = 10
    #expect(fontSource.lineBreaker(for: layout) is TextMeasurer)
    layout.unit = .font
    #expect(fontSource.lineBreaker(for: layout) is TextMeasurer)
    layout.font = crossCheckFont
    #expect(fontSource.lineBreaker(for: layout) is FontLineBreaker)
  }
}
