import Testing

@testable import OutlineFont

/// Break opportunities found from a line's start inside a word (``BreakScanner``).
@Suite struct BreakScannerTests {
  func breaks(_ word: String, from: Int) -> [UInt32] {
    var copy = word
    return copy.withUTF8 { BreakScanner().breaks(of: $0, word: 0, from: from) }
  }

  @Test func aHyphenThatStartsTheLineHasNoBreakBeforeADigit() {
    #expect(breaks("AVX-512,", from: 0) == [4])
    #expect(breaks("AVX-512,", from: 3) == [])
    #expect(breaks("2024-03-15", from: 4) == [8])
  }

  @Test func thaiWordsAreFoundAgainFromTheLinesStart() {
    // "กรุงเทพมหานคร…" from its seventh letter, พ: พ is a word of its own there.
    let text = "กรุงเทพมหานครเป็นเมืองหลวง"
    let from = Array(text.unicodeScalars.prefix(6)).reduce(0) { $0 + String($1).utf8.count }
    #expect(breaks(text, from: from).first == UInt32(from + "พ".utf8.count))
  }

  @Test func onlyWordsWhoseBreaksDependOnWhatComesBeforeAreScannedAgain() {
    func context(_ s: String) -> BreakScanner.Context {
      var copy = s
      return copy.withUTF8 { BreakScanner.context(of: $0) }
    }
    #expect(context("AVX-512") == .hyphen)
    #expect(context("-512") == .none)
    #expect(context("state-of-the-art") == .none)
    #expect(context("ภาษาไทย") == .dictionary)
    #expect(context("中文、中文。") == .none)
    var text = "AVX-512"
    text.withUTF8 {
      #expect(BreakScanner().startsAfresh(.hyphen, $0, at: 3))
      #expect(!BreakScanner().startsAfresh(.hyphen, $0, at: 4))
    }
  }
}
