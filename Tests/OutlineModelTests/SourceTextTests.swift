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
    // U+2028 is not a line break for LSP: libyaml's line 4 is on LSP line 3.
    #expect(text.lspPosition(SourcePosition(line: 4, column: 1), in: .utf16) == (3, 6))
    #expect(Array(text.lineBytes(1)) == Array("b😀c".utf8))
  }

  /// libyaml's marks count U+0085, U+2028 and U+2029 as line breaks; LSP does not.
  @Test func libyamlsExtraLineBreaksAreNotLSPLines() {
    for (name, length) in [("\u{85}", 2), ("\u{2028}", 3), ("\u{2029}", 3)] {
      let text = SourceText("k: \"😀\(name)b\", x: 1\ny: é\(name)\(name)z\n")
      #expect(text.lineCount == 3)
      // libyaml's line 1 starts after the first break, still on LSP line 0.
      let x = SourcePosition(line: 1, column: 4)
      #expect(text.lspPosition(x, in: .utf8) == (0, 12 + length))
      #expect(text.lspPosition(x, in: .utf16) == (0, 11))
      #expect(text.lspPosition(x, in: .utf32) == (0, 10))
      // libyaml's line 2 is LSP line 1; lines 3 and 4 follow on it.
      #expect(text.lspPosition(SourcePosition(line: 2, column: 3), in: .utf8) == (1, 3))
      #expect(text.lspPosition(SourcePosition(line: 2, column: 3), in: .utf16) == (1, 3))
      #expect(text.lspPosition(SourcePosition(line: 4, column: 0), in: .utf8) == (1, 5 + 2 * length))
      #expect(text.lspPosition(SourcePosition(line: 4, column: 0), in: .utf16) == (1, 6))
      #expect(text.lspPosition(SourcePosition(line: 4, column: 0), in: .utf32) == (1, 6))
      // A column past the end of libyaml's line stops at its break.
      #expect(text.lspPosition(SourcePosition(line: 0, column: 40), in: .utf16) == (0, 6))
      // libyaml's line 5 is LSP line 2 (empty); past it, lines keep their distance.
      #expect(text.lspPosition(SourcePosition(line: 5, column: 0), in: .utf32) == (2, 0))
      #expect(text.lspPosition(SourcePosition(line: 7, column: 3), in: .utf32) == (4, 3))
      #expect(character(text, 1, 4, .utf32) == 10)
    }
  }

  @Test func libyamlsLinesAfterAByteOrderMarkAndCRLF() {
    let text = SourceText([0xEF, 0xBB, 0xBF] + Array("a\r\nb\u{2028}c\r\nd".utf8))
    #expect(text.lspPosition(SourcePosition(line: 2, column: 1), in: .utf8) == (1, 5))
    #expect(text.lspPosition(SourcePosition(line: 3, column: 1), in: .utf16) == (2, 1))
    #expect(text.lspPosition(SourcePosition(line: 0, column: 1), in: .utf16) == (0, 1))
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

  /// A file that is only a byte order mark is empty: one empty line.
  @Test func aByteOrderMarkAloneIsAnEmptyText() {
    let text = SourceText([0xEF, 0xBB, 0xBF])
    #expect(text.bytes.isEmpty)
    #expect(text.lineCount == 1)
    #expect(SourceText([0xEF, 0xBB, 0xBF, 0x61]).bytes == [0x61])
  }

  /// A text may end inside a scalar (the loader reports invalid UTF-8 at it):
  /// a lead byte of U+0085 or U+2028 at the very end is one scalar, not a break.
  @Test func aTextEndingInsideALineBreakScalarIsRead() {
    for tail: [UInt8] in [[0xC2], [0xE2], [0xE2, 0x80]] {
      let text = SourceText([0x61, 0x0A, 0x62] + tail)
      #expect(text.lineCount == 2)
      #expect(text.character(of: SourcePosition(line: 1, column: 2), in: .utf16) == 2, "\(tail)")
    }
  }

  /// An edit next to such an end looks for libyaml's line breaks around the
  /// splice without reading past the last byte.
  @Test func aTextEndingInsideALineBreakScalarIsEdited() {
    for tail: [UInt8] in [[0xC2], [0xE2], [0xE2, 0x80]] {
      var text = SourceText([0x61, 0x0A, 0x62] + tail)
      text.replaceSubrange(2..<3, with: [0x63, 0x64])
      #expect(text.bytes == [0x61, 0x0A, 0x63, 0x64] + tail, "\(tail)")
      #expect(text.lineCount == 2, "\(tail)")
      #expect(text.character(of: SourcePosition(line: 1, column: 3), in: .utf16) == 3, "\(tail)")
    }
  }

  @Test func theZeroRangeIsEmptyAtTheStart() {
    #expect(
      SourceRange.zero
        == SourceRange(start: SourcePosition(line: 0, column: 0), end: SourcePosition(line: 0, column: 0)))
  }
}

/// The builder the loader streams into: flat calls make the nested document.
@Suite struct DocumentBuilderTests {
  @Test func nestedGroupsAndRowsAreRebuiltInOrder() {
    var b = DocumentBuilder()
    b.setTitle("T")
    b.setExpansion(.single)
    let outer = b.beginGroup(parent: nil, source: .zero)
    #expect(outer == 0)
    b.addRow(RowSpec(title: "r1"), parent: outer)
    let inner = b.beginGroup(parent: outer, source: .zero)
    #expect(inner == 1)
    b.addRow(RowSpec(title: "r2"), parent: inner)
    b.endGroup(inner, fields: GroupSpec(title: "Inner"))
    b.addRow(RowSpec(title: "r3"), parent: outer)
    b.endGroup(outer, fields: GroupSpec(title: "Outer"))
    let second = b.beginGroup(parent: nil, source: .zero)
    #expect(second == 0)
    b.endGroup(second, fields: GroupSpec(title: "Second"))
    let doc = b.document
    #expect(doc.title == "T")
    #expect(doc.expansion == .single)
    #expect(doc.groups.map(\.title) == ["Outer", "Second"])
    #expect(doc.groups[0].groups.map(\.title) == ["Inner"])
    #expect(doc.groups[0].groups[0].rows.map(\.title) == ["r2"])
    #expect(doc.groups[0].rows.map(\.title) == ["r1", "r3"])
  }
}
