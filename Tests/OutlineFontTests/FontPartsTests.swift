import CHarfBuzz
import OutlineModel
import Testing

@testable import OutlineFont

@Suite struct PunctuationSpacingTests {
  @Test func classesFollowCSSTextSpacingClasses() {
    #expect(PunctuationClass(0x300C) == .open)  // 「
    #expect(PunctuationClass(0xFF09) == .close)  // ）
    #expect(PunctuationClass(0x0028) == .openNarrow)  // (
    #expect(PunctuationClass(0xFF63) == .closeNarrow)  // ｣ (halfwidth)
    #expect(PunctuationClass(0x3002) == .dot)  // 。
    #expect(PunctuationClass(0xFF1A) == .colon)
    #expect(PunctuationClass(0x30FB) == .middle)  // ・
    #expect(PunctuationClass(0x201C) == .openQuote)
    #expect(PunctuationClass(0x4E2D) == .other)
    #expect(PunctuationClass.mayCloseLine(0x300D) && !PunctuationClass.mayCloseLine(0x3002))
  }

  @Test func theSimplifiedChineseFaceDrawsDotsClosing() throws {
    let faces = fontSource.lineBreaker(font: crossCheckFont).faces
    #expect(faces.map(\.family) == ["Noto Sans", "Noto Sans CJK SC", "Noto Color Emoji"])
    #expect(!faces[0].hasHalt && faces[1].hasHalt && faces[2].isColor)
    let shapes = try #require(faces[1].punctuation)
    #expect(shapes.dot == .close)
    // Adjacent marks collapse: ，「 takes one and a half em, a bracket closing a line may take half.
    let full = crossCheckFont.size
    let sc = fontSource.lineBreaker(font: crossCheckFont)
    #expect(abs(sc.advance(of: "，「") - 1.5 * full) < 0.01)
    #expect(abs(sc.advance(of: "」。") - 1.5 * full) < 0.01)
    #expect(abs(sc.advance(of: "中」") - 2 * full) < 0.01)
  }
}

@Suite struct AsciiPairsTests {
  /// Pair tables give HarfBuzz's advances for every three-letter word of a
  /// busy alphabet in Noto Sans (kerning pairs, `fi` `fl` ligatures left to HarfBuzz).
  @Test func pairTablesEqualHarfBuzzOnTriples() {
    let chars = Array("afilTVWYoertvy.,'\"-/(A7!?")
    let pairs = FontLineBreakers().lineBreaker(font: FontDescription(families: ["Noto Sans"], size: 14))
    let harfBuzz = FontLineBreakers().lineBreaker(font: FontDescription(families: ["Noto Sans"], size: 14))
    harfBuzz.shapesByPairs = false
    for x in chars {
      for y in chars {
        for z in chars {
          let w = String([x, y, z])
          #expect(pairs.advance(of: w) == harfBuzz.advance(of: w), "\(w)")
        }
      }
    }
  }
}

@Suite struct ByteKeyTableTests {
  @Test func findsWhatWasStoredAndNothingElse() {
    var table = ByteKeyTable()
    let keys = (0..<5000).map { Array("key \($0) \(String(repeating: "x", count: $0 % 17))".utf8) } + [[]]
    for (i, k) in keys.enumerated() {
      _ = k.withUnsafeBufferPointer { table.insert($0, hash: ByteKeyTable.hash($0), value: UInt32(i)) }
    }
    #expect(table.count == keys.count)
    for (i, k) in keys.enumerated() {
      #expect(k.withUnsafeBufferPointer { table.value(for: $0, hash: ByteKeyTable.hash($0)) } == UInt32(i))
    }
    let missing = Array("key 5001".utf8)
    #expect(missing.withUnsafeBufferPointer { table.value(for: $0, hash: ByteKeyTable.hash($0)) } == nil)
    // Same hash, other bytes: the bytes decide.
    #expect(
      missing.withUnsafeBufferPointer {
        table.value(for: $0, hash: ByteKeyTable.hash(keys[3].withUnsafeBufferPointer { $0 }))
      } == nil)
    table.removeAll()
    #expect(table.count == 0)
  }
}

@Suite struct FontMatcherTests {
  let matcher = FontMatcher()

  @Test func aFamilyIsAcceptedOnlyWhenItIsReallyThere() {
    #expect(matcher.match(family: "Noto Sans", weight: 400, italic: false)?.family == "Noto Sans")
    #expect(matcher.match(family: "noto sans", weight: 400, italic: false) != nil)
    #expect(matcher.match(family: "No Such Family", weight: 400, italic: false) == nil)
    #expect(matcher.match(family: "sans-serif", weight: 400, italic: false) != nil)
    let bold = matcher.match(family: "Noto Sans", weight: 700, italic: false)
    #expect(bold?.face != matcher.match(family: "Noto Sans", weight: 400, italic: false)?.face)
  }

  @Test func theSystemFallbackHasTheCharacter() {
    #expect(matcher.fallback(for: 0x4E2D, weight: 400, italic: false, lang: "en") != nil)
    #expect(matcher.fallback(for: 0x1F600, weight: 400, italic: false, lang: "und-zsye")?.family == "Noto Color Emoji")
    #expect(matcher.fallback(for: 0x10FFFD, weight: 400, italic: false, lang: "en") == nil)
  }
}
