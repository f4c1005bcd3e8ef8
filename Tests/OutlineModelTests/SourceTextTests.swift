import OutlineModel
import Testing

@Suite struct SourceTextTests {
  private func character(
    _ text: SourceText, _ line: Int, _ column: Int, _ encoding: PositionEncoding
  ) -> Int {
    text.character(of: SourcePosition(line: line, column: column), in: encoding)
  }

  @Test func asciiIsTheSameInEveryEncoding() {
    let text = SourceText("title: abc\n")
    for encoding in PositionEncoding.allCases {
      #expect(character(text, 0, 7, encoding) == 7)
    }
  }

  @Test func multiByteScalars() {
    // é: 2 UTF-8 bytes, 1 UTF-16 unit; 😀: 4 bytes, 2 units; 한: 3 bytes, 1 unit.
    let text = SourceText("é😀한x")
    #expect(character(text, 0, 1, .utf8) == 2)
    #expect(character(text, 0, 2, .utf8) == 6)
    #expect(character(text, 0, 3, .utf8) == 9)
    #expect(character(text, 0, 2, .utf16) == 3)
    #expect(character(text, 0, 4, .utf16) == 5)
    #expect(character(text, 0, 4, .utf32) == 4)
  }

  @Test func linesSplitAtLFCRLFAndCR() {
    let text = SourceText("a\nb😀c\r\nd😀e\rf😀g\u{2028}h")
    #expect(text.lineCount == 4)
    #expect(character(text, 1, 2, .utf16) == 3)
    #expect(character(text, 2, 2, .utf16) == 3)
    // U+2028 is not a line break for LSP: it is one more scalar on line 3.
    #expect(character(text, 3, 5, .utf16) == 6)
    #expect(Array(text.lineBytes(1)) == Array("b😀c".utf8))
  }

  @Test func aColumnPastTheEndIsTheLineLength() {
    let text = SourceText("ab😀\nxyz")
    #expect(character(text, 0, 10, .utf16) == 4)
    #expect(character(text, 0, 10, .utf8) == 6)
    #expect(character(text, 7, 3, .utf16) == 3)
  }

  @Test func byteOrderMarkIsNotPartOfLineZero() {
    let text = SourceText([0xEF, 0xBB, 0xBF] + Array("é=1".utf8))
    #expect(character(text, 0, 2, .utf8) == 3)
  }

  @Test func invalidBytesCountAsOneScalarEach() {
    let text = SourceText([0x61, 0xFF, 0xC3, 0xA9])
    #expect(character(text, 0, 2, .utf8) == 2)
    #expect(character(text, 0, 3, .utf8) == 4)
    #expect(character(text, 0, 3, .utf16) == 3)
  }

  @Test func emptyTextAndTrailingBreak() {
    #expect(SourceText("").lineCount == 1)
    #expect(SourceText("a\n").lineCount == 2)
    #expect(SourceText("a\r\n").lineBytes(0).count == 1)
  }
}
