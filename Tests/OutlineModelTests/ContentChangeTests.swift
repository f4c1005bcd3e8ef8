import OutlineModel
import Testing

/// LSP content changes applied to a ``SourceText`` (PROTOCOL §9 `changeOutline {edits}`).
@Suite struct ContentChangeTests {
  private func change(_ l0: Int, _ c0: Int, _ l1: Int, _ c1: Int, _ text: String) -> ContentChange {
    ContentChange(
      range: LSPRange(start: LSPPosition(line: l0, character: c0), end: LSPPosition(line: l1, character: c1)),
      text: Array(text.utf8))
  }

  private func applied(_ text: String, _ changes: [ContentChange], _ encoding: PositionEncoding = .utf16) throws
    -> String
  {
    var source = SourceText(text)
    _ = try source.apply(changes, in: encoding)
    // The line index kept up with the splices: it is the one a fresh read makes.
    #expect(source == SourceText(source.bytes))
    return String(decoding: source.bytes, as: UTF8.self)
  }

  /// The error `changes` get, and checks that the text is as it was.
  private func refusal(_ text: String, _ changes: [ContentChange], _ encoding: PositionEncoding) -> ContentChangeError?
  {
    var source = SourceText(text)
    do {
      _ = try source.apply(changes, in: encoding)
      Issue.record("\(changes) applied to \(text.debugDescription) in \(encoding)")
      return nil
    } catch {
      #expect(source == SourceText(text), "nothing is applied")
      return error
    }
  }

  @Test func insertDeleteAndReplace() throws {
    #expect(try applied("title: A\n", [change(0, 7, 0, 7, "Big ")]) == "title: Big A\n")
    #expect(try applied("title: A\nx: 1\n", [change(0, 5, 1, 4, "")]) == "title\n")
    #expect(try applied("ab\ncd", [change(0, 1, 1, 1, "X\nY\nZ")]) == "aX\nY\nZd")
    #expect(try applied("", [change(0, 0, 0, 0, "groups: []\n")]) == "groups: []\n")
    // The end of the text: the last line at its length.
    #expect(try applied("a\nbc", [change(1, 2, 1, 2, "!")]) == "a\nbc!")
  }

  @Test func eachRangeIsAgainstTheTextTheChangesBeforeItLeft() throws {
    let text = "one\ntwo\nthree\n"
    let changes = [change(0, 0, 0, 0, "zero\n"), change(1, 0, 1, 3, "ONE"), change(3, 0, 4, 0, "")]
    #expect(try applied(text, changes) == "zero\nONE\ntwo\n")
  }

  @Test func charactersCountInTheEncoding() throws {
    // é: 2 UTF-8 bytes, 1 UTF-16 unit; 😀: 4 bytes, 2 units, 1 scalar.
    let text = "é😀x\n"
    #expect(try applied(text, [change(0, 6, 0, 7, "y")], .utf8) == "é😀y\n")
    #expect(try applied(text, [change(0, 3, 0, 4, "y")], .utf16) == "é😀y\n")
    #expect(try applied(text, [change(0, 2, 0, 3, "y")], .utf32) == "é😀y\n")
    #expect(try applied(text, [change(0, 1, 0, 2, "")], .utf32) == "éx\n")
  }

  @Test func linesEndAtLFCRLFAndCR() throws {
    #expect(try applied("a\r\nb\rc\nd", [change(2, 0, 3, 1, "C")]) == "a\r\nb\rC")
    #expect(try applied("a\r\nb\rc\nd", [change(1, 1, 2, 0, "")]) == "a\r\nbc\nd")
    // A position is never between \r and \n: a line's end is before its break.
    #expect(try applied("a\r\nb", [change(0, 1, 1, 0, "")]) == "ab")
    // U+2028 ends no LSP line.
    #expect(try applied("a\u{2028}b\nc", [change(0, 2, 1, 0, "")]) == "a\u{2028}c")
  }

  /// A `\r` left by one splice and a `\n` brought by the next make one line break.
  @Test func aCarriageReturnAndALineFeedThatMeetAreOneBreak() throws {
    var source = SourceText("a\rb")
    #expect(source.lineCount == 2)
    _ = try source.apply([change(1, 0, 1, 0, "\n")], in: .utf16)
    #expect(source.lineCount == 2)
    #expect(source == SourceText("a\r\nb"))
    _ = try source.apply([change(1, 0, 1, 0, "x")], in: .utf16)
    #expect(source == SourceText("a\r\nxb"))
    // Deleting what was between them joins them too.
    var apart = SourceText("a\rx\nb")
    #expect(apart.lineCount == 3)
    _ = try apart.apply([change(1, 0, 1, 1, "")], in: .utf16)
    #expect(apart == SourceText("a\r\nb"))
    #expect(apart.lineCount == 2)
  }

  @Test func aRangeOutsideTheTextIsRefusedInEveryEncoding() {
    let text = "ab\nc😀\n"
    for encoding in PositionEncoding.allCases {
      let line = refusal(text, [change(3, 0, 3, 0, "x")], encoding)
      #expect(line?.index == 0 && line?.part == .start)
      #expect(line?.reason == "is outside the text: it has 3 lines (0 to 2), not line 3")
      let length = ["utf-8": 5, "utf-16": 3, "utf-32": 2][encoding.rawValue]!
      let character = refusal(text, [change(1, 0, 1, length + 1, "x")], encoding)
      #expect(character?.part == .end)
      #expect(
        character?.reason
          == "is outside the text: line 1 is \(length) \(encoding.rawValue) code units long, "
          + "character \(length + 1) is past its end")
      // The line break is not part of the line.
      #expect(refusal(text, [change(0, 3, 0, 3, "x")], encoding)?.part == .start)
      let negative = refusal(text, [change(0, -1, 0, 0, "x")], encoding)
      #expect(negative?.reason.hasPrefix("is outside the text: line 0 is 2 ") == true)
    }
  }

  @Test func aRangeThatEndsBeforeItStartsIsRefused() {
    for encoding in PositionEncoding.allCases {
      let e = refusal("abc\ndef\n", [change(1, 1, 0, 2, "")], encoding)
      #expect(e == ContentChangeError(index: 0, part: .range, reason: "ends before it starts"))
      #expect(refusal("abc\n", [change(0, 2, 0, 1, "")], encoding)?.part == .range)
    }
  }

  @Test func aRangeThatSplitsACharacterIsRefused() {
    // Inside é's two UTF-8 bytes.
    let utf8 = refusal("xé\n", [change(0, 2, 0, 3, "")], .utf8)
    #expect(utf8?.part == .start)
    #expect(
      utf8?.reason == "splits a character: utf-8 character 2 of line 0 falls inside the 2-byte UTF-8 sequence of U+00E9"
    )
    #expect(refusal("😀\n", [change(0, 0, 0, 3, "")], .utf8)?.part == .end)
    // Between the two halves of a surrogate pair.
    let utf16 = refusal("a😀\n", [change(0, 2, 0, 3, "")], .utf16)
    #expect(
      utf16?.reason == "splits a character: utf-16 character 2 of line 0 falls inside the surrogate pair of U+1F600")
    #expect(refusal("a😀\n", [change(0, 0, 0, 2, "")], .utf16)?.part == .end)
    // UTF-32 counts scalars: nothing to split.
    #expect((try? applied("a😀\n", [change(0, 1, 0, 2, "")], .utf32)) == "a\n")
  }

  @Test func aRefusedChangeUndoesTheOnesBeforeIt() {
    let text = "one\ntwo\r\nthree é\n"
    let e = refusal(
      text, [change(0, 0, 0, 3, "1\r"), change(1, 0, 1, 0, "\n"), change(3, 0, 3, 8, "x"), change(9, 0, 9, 0, "")],
      .utf8)
    #expect(e?.index == 3 && e?.part == .start)
  }

  @Test func revertUndoesWhatApplyDid() throws {
    let text = "a\u{2028}b\r\nc\rd😀\n"
    var source = SourceText(text)
    let splices = try source.apply([change(0, 0, 1, 1, "\u{85}x\r"), change(0, 0, 0, 0, "\n")], in: .utf16)
    #expect(source == SourceText(source.bytes))
    source.revert(splices)
    #expect(source == SourceText(text))
  }

  /// Random edits of texts full of line breaks and multi-byte characters:
  /// after each, the line index is the one a fresh read of the bytes makes.
  @Test func theLineIndexFollowsRandomEdits() throws {
    let pieces = ["a", "é", "😀", "\n", "\r", "\r\n", "\u{2028}", "\u{85}", " ", "xyz", "한"]
    var rng = SplitMix(seed: 7)
    for _ in 0..<300 {
      var text = ""
      for _ in 0..<Int(rng.next() % 12) { text += pieces[Int(rng.next() % UInt64(pieces.count))] }
      var source = SourceText(text)
      var shadow = Array(text.unicodeScalars)
      for _ in 0..<4 {
        // A random range between scalars, in UTF-32 positions.
        let a = Int(rng.next() % UInt64(shadow.count + 1))
        let b = a + Int(rng.next() % UInt64(shadow.count - a + 1))
        var insert = ""
        for _ in 0..<Int(rng.next() % 3) { insert += pieces[Int(rng.next() % UInt64(pieces.count))] }
        let range = LSPRange(start: lspPosition(shadow, a), end: lspPosition(shadow, b))
        // Positions between \r and \n do not exist: skip such draws.
        guard a == 0 || !(shadow[a - 1] == "\r" && a < shadow.count && shadow[a] == "\n"),
          b == 0 || !(shadow[b - 1] == "\r" && b < shadow.count && shadow[b] == "\n")
        else { continue }
        _ = try source.apply([ContentChange(range: range, text: Array(insert.utf8))], in: .utf32)
        shadow.replaceSubrange(a..<b, with: Array(insert.unicodeScalars))
        var expected = String.UnicodeScalarView()
        expected.append(contentsOf: shadow)
        #expect(source == SourceText(String(expected)), "\(text.debugDescription)")
      }
    }
  }

  /// The LSP position (UTF-32) of scalar `i` of `scalars`.
  private func lspPosition(_ scalars: [Unicode.Scalar], _ i: Int) -> LSPPosition {
    var line = 0
    var character = 0
    var k = 0
    while k < i {
      let s = scalars[k]
      if s == "\n" || (s == "\r" && !(k + 1 < scalars.count && scalars[k + 1] == "\n")) {
        line += 1
        character = 0
      } else if s != "\r" {
        character += 1
      }
      k += 1
    }
    return LSPPosition(line: line, character: character)
  }

  @Test func aPositionAsLibyamlCountsIt() {
    let text = SourceText("a: 1\nb: \"x\u{2028}y😀z\"\n")
    #expect(
      text.sourcePosition(of: LSPPosition(line: 0, character: 3), in: .utf16) == SourcePosition(line: 0, column: 3))
    // After U+2028, libyaml counts another line; 😀 is one scalar.
    #expect(
      text.sourcePosition(of: LSPPosition(line: 1, character: 9), in: .utf16) == SourcePosition(line: 2, column: 2))
    #expect(
      text.sourcePosition(of: LSPPosition(line: 1, character: 9), in: .utf8) == SourcePosition(line: 2, column: 1))
    // Inside a character: that character; past the line's end: its end.
    #expect(
      text.sourcePosition(of: LSPPosition(line: 1, character: 8), in: .utf16) == SourcePosition(line: 2, column: 1))
    #expect(
      text.sourcePosition(of: LSPPosition(line: 0, character: 99), in: .utf16) == SourcePosition(line: 0, column: 4))
    #expect(text.sourcePosition(of: LSPPosition(line: 3, character: 0), in: .utf16) == nil)
  }

  /// Character 0 is the start of its line, also on the line after one of
  /// libyaml's extra breaks; a negative line or character is no position.
  @Test func theStartOfALineIsColumnZeroAndANegativePositionIsNone() {
    let text = SourceText("a: 1\nb: \"x\u{2028}y\"\n")
    for encoding in PositionEncoding.allCases {
      #expect(
        text.sourcePosition(of: LSPPosition(line: 1, character: 0), in: encoding) == SourcePosition(line: 1, column: 0))
      #expect(
        text.sourcePosition(of: LSPPosition(line: 0, character: 0), in: encoding) == SourcePosition(line: 0, column: 0))
      #expect(text.sourcePosition(of: LSPPosition(line: 1, character: -1), in: encoding) == nil)
      #expect(text.sourcePosition(of: LSPPosition(line: -1, character: 0), in: encoding) == nil)
    }
  }

  @Test func aRangePastTheEndOfTheTextEndsAtItsEnd() {
    let text = SourceText("a: 1\nb: é")
    let range = SourceRange(start: SourcePosition(line: 1, column: 0), end: SourcePosition(line: 2, column: 0))
    #expect(
      text.lspRange(range, in: .utf8)
        == LSPRange(start: LSPPosition(line: 1, character: 0), end: LSPPosition(line: 1, character: 5)))
    #expect(text.end(in: .utf16) == LSPPosition(line: 1, character: 4))
  }
}
