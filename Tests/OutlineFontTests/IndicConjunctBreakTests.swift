import Testing

@testable import OutlineFont

/// Unicode 15.1's conjunct rule (GB9c) on top of the system's ICU.
@Suite struct IndicConjunctBreakTests {
  @Test func consonantsViramasAndMarksAreClassified() {
    #expect(IndicConjunctBreak(0x0928) == .consonant)  // न
    #expect(IndicConjunctBreak(0x094D) == .linker)  // ्
    #expect(IndicConjunctBreak(0x093F) == .none)  // ि, a spacing mark
    #expect(IndicConjunctBreak(0x093C) == .extend)  // ़, nukta
    #expect(IndicConjunctBreak(0x0041) == .none)
  }

  /// At 1 px every grapheme cluster takes a line; Chromium 156 draws these
  /// conjuncts whole (`न्द`, `क्ष`, `ज्र`).
  @Test(arguments: [
    ("हिन्दी", ["हि", "न्दी"]), ("ক্ষমা", ["ক্ষ", "মা"]), ("ગુજ્રાતી", ["ગુ", "જ્રા", "તી"]),
  ])
  func conjunctsAreOneCluster(text: String, expected: [String]) {
    let breaker = fontSource.lineBreaker(font: crossCheckFont)
    #expect(breaker.lines(text, width: 1).map(String.init) == expected)
  }
}
