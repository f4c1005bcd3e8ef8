/// How a position's `character` counts code units (LSP 3.17 §PositionEncodingKind).
public enum PositionEncoding: String, Sendable, Equatable, CaseIterable {
  /// Bytes of UTF-8.
  case utf8 = "utf-8"
  /// UTF-16 code units (the LSP default).
  case utf16 = "utf-16"
  /// Unicode scalar values (UTF-32 code units).
  case utf32 = "utf-32"
}

/// The text of a source file, kept as bytes with an index of line starts, so
/// that a ``SourcePosition`` (a line and a column as libyaml counts them) can
/// be given as an LSP position in any ``PositionEncoding`` (LSP 3.17 §Position).
///
/// Lines end at `\n`, `\r\n` or `\r`, as in LSP. libyaml (YAML 1.1) also
/// ends a line at U+0085, U+2028 and U+2029, so its marks count more lines
/// when the text holds one of them: ``lspPosition(_:in:)`` finds the byte a
/// position points at with libyaml's line breaks, then gives that byte's
/// LSP line and character. A leading UTF-8 byte order mark is not part of
/// line 0 (YAML readers skip it and so do editors). A byte that is not part
/// of valid UTF-8 counts as one scalar (one byte, one UTF-16 unit), as a
/// U+FFFD shown in its place.
public struct SourceText: Sendable, Equatable {
  /// The file's bytes, without a leading byte order mark.
  public private(set) var bytes: [UInt8]
  /// Byte offset in ``bytes`` where each LSP line starts; `lineStarts[0] == 0`.
  private var lineStarts: [Int]
  /// Byte offset in ``bytes`` where each line starts as libyaml counts
  /// lines; `nil` when the text has no U+0085, U+2028 or U+2029, so that
  /// libyaml's lines are LSP's.
  private var markLineStarts: [Int]?

  /// Indexes the lines of `bytes` (UTF-8, an optional BOM).
  ///
  /// - Complexity: O(n) in the number of bytes.
  public init(_ bytes: [UInt8]) {
    let body: [UInt8]
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
      body = Array(bytes[3...])
    } else {
      body = bytes
    }
    self.bytes = body
    (lineStarts, markLineStarts) = Self.lineIndex(body)
  }

  /// The starts of LSP's lines in `body`, and of libyaml's (`nil` when they are LSP's).
  private static func lineIndex(_ body: [UInt8]) -> (lsp: [Int], marks: [Int]?) {
    var starts = [0]
    // Starts of lines after U+0085, U+2028 or U+2029 (libyaml's lines only).
    var markStarts: [Int] = []
    var i = 0
    let n = body.count
    while i < n {
      let b = body[i]
      if b == 0x0A {
        starts.append(i + 1)
      } else if b == 0x0D {
        if i + 1 < n, body[i + 1] == 0x0A { i += 1 }
        starts.append(i + 1)
      } else if b == 0xC2, i + 1 < n, body[i + 1] == 0x85 {
        i += 1
        markStarts.append(i + 1)
      } else if b == 0xE2, i + 2 < n, body[i + 1] == 0x80, body[i + 2] == 0xA8 || body[i + 2] == 0xA9 {
        i += 2
        markStarts.append(i + 1)
      }
      i += 1
    }
    return (starts, markStarts.isEmpty ? nil : (starts + markStarts).sorted())
  }

  /// Indexes the lines of `text`.
  public init(_ text: String) {
    self.init(Array(text.utf8))
  }

  /// The number of LSP lines (an empty text, or one ending in a line break, ends with an empty line).
  public var lineCount: Int { lineStarts.count }

  /// The bytes of LSP line `line` without its line break; empty past the end.
  public func lineBytes(_ line: Int) -> ArraySlice<UInt8> {
    guard line >= 0, line < lineStarts.count else { return [] }
    return bytes[contentRange(ofLine: line)]
  }

  /// The `character` of the LSP position of `position`.
  ///
  /// - Parameters:
  ///   - position: a line and a column (in Unicode scalars) as libyaml counts them.
  ///   - encoding: the negotiated position encoding.
  /// - Returns: ``lspPosition(_:in:)``'s `character`.
  /// - Complexity: O(length of the LSP line).
  public func character(of position: SourcePosition, in encoding: PositionEncoding) -> Int {
    lspPosition(position, in: encoding).character
  }

  /// Converts a position as libyaml counts it to LSP's `(line, character)` in `encoding`.
  ///
  /// - Parameters:
  ///   - position: 0-based line and column (in Unicode scalars) as libyaml
  ///     counts them: its lines also end at U+0085, U+2028 and U+2029.
  ///   - encoding: the negotiated position encoding.
  /// - Returns: the LSP line and character of the byte `position` points at.
  ///   A column past the end of libyaml's line gives that line's end (LSP:
  ///   the position defaults back to the line's end); a line past the end
  ///   gives `column` on the line as many lines past the last LSP line.
  /// - Complexity: O(length of the LSP line), plus O(log lines) when the
  ///   text holds U+0085, U+2028 or U+2029.
  public func lspPosition(_ position: SourcePosition, in encoding: PositionEncoding) -> (line: Int, character: Int) {
    let marks = markLineStarts ?? lineStarts
    guard position.line >= 0 else { return (position.line, position.column) }
    guard position.line < marks.count else {
      return (position.line - (marks.count - lineStarts.count), position.column)
    }
    // The byte the column points at, not past the break that ends libyaml's line.
    var offset = marks[position.line]
    var scalars = 0
    while scalars < position.column, offset < bytes.count {
      let (scalar, length) = Self.decode(bytes, at: offset)
      if let scalar, Self.isMarkLineBreak(scalar) { break }
      offset += length
      scalars += 1
    }
    let line = markLineStarts == nil ? position.line : lspLine(containing: offset)
    var units = 0
    var i = lineStarts[line]
    while i < offset {
      let (scalar, length) = Self.decode(bytes, at: i)
      i += length
      switch encoding {
      case .utf8: units += length
      case .utf16: units += (scalar ?? 0) > 0xFFFF ? 2 : 1
      case .utf32: units += 1
      }
    }
    return (line, units)
  }

  /// Whether libyaml ends a line at `scalar`.
  private static func isMarkLineBreak(_ scalar: UInt32) -> Bool {
    scalar == 0x0A || scalar == 0x0D || scalar == 0x85 || scalar == 0x2028 || scalar == 0x2029
  }

  /// The LSP line that holds byte `offset`.
  private func lspLine(containing offset: Int) -> Int {
    Self.lastIndex(in: lineStarts, atOrBefore: offset)
  }

  /// Decodes one scalar at `i`: its value (nil when the bytes are not valid UTF-8) and its length in bytes.
  private static func decode(_ s: [UInt8], at i: Int) -> (UInt32?, Int) {
    let b0 = s[i]
    if b0 < 0x80 { return (UInt32(b0), 1) }
    let length: Int
    let minimum: UInt32
    var value: UInt32
    switch b0 {
    case 0xC2...0xDF: (length, minimum, value) = (2, 0x80, UInt32(b0 & 0x1F))
    case 0xE0...0xEF: (length, minimum, value) = (3, 0x800, UInt32(b0 & 0x0F))
    case 0xF0...0xF4: (length, minimum, value) = (4, 0x10000, UInt32(b0 & 0x07))
    default: return (nil, 1)
    }
    guard i + length <= s.endIndex else { return (nil, 1) }
    for k in 1..<length {
      let b = s[i + k]
      guard b & 0xC0 == 0x80 else { return (nil, 1) }
      value = value << 6 | UInt32(b & 0x3F)
    }
    guard value >= minimum, value <= 0x10FFFF, !(0xD800...0xDFFF).contains(value) else { return (nil, 1) }
    return (value, length)
  }
}

// MARK: LSP positions

extension SourceText {
  /// The bytes of LSP line `line` without its line break, as a range of ``bytes``.
  fileprivate func contentRange(ofLine line: Int) -> Range<Int> {
    let start = lineStarts[line]
    var end = line + 1 < lineStarts.count ? lineStarts[line + 1] : bytes.count
    while end > start, bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
    return start..<end
  }

  /// The code units of `encoding` that a scalar of `length` UTF-8 bytes takes
  /// (a byte that is not valid UTF-8 counts as one scalar of one unit).
  @inline(__always)
  private static func units(_ scalar: UInt32?, _ length: Int, _ encoding: PositionEncoding) -> Int {
    switch encoding {
    case .utf8: return length
    case .utf16: return (scalar ?? 0) > 0xFFFF ? 2 : 1
    case .utf32: return 1
    }
  }

  /// The length of `bytes[range]` in code units of `encoding`.
  private func length(of range: Range<Int>, _ encoding: PositionEncoding) -> Int {
    var units = 0
    var i = range.lowerBound
    while i < range.upperBound {
      let (scalar, length) = Self.decode(bytes, at: i)
      units += Self.units(scalar, length, encoding)
      i += length
    }
    return units
  }

  /// The byte offset in ``bytes`` of an LSP position, strictly: the
  /// position must be on a line of the text, at most at its end (before its
  /// line break), and between two characters.
  ///
  /// - Throws: ``PositionProblem``: the line is past the last one, the
  ///   character past the line's end, or inside a character (a UTF-8
  ///   sequence, or a UTF-16 surrogate pair).
  /// - Complexity: O(length of the line).
  public func offset(of position: LSPPosition, in encoding: PositionEncoding) throws(PositionProblem) -> Int {
    guard position.line >= 0, position.line < lineStarts.count else {
      throw .lineOutside(line: position.line, lineCount: lineStarts.count)
    }
    let content = contentRange(ofLine: position.line)
    guard position.character >= 0 else {
      throw .characterOutside(line: position.line, character: position.character, length: length(of: content, encoding))
    }
    var units = 0
    var i = content.lowerBound
    while units < position.character {
      guard i < content.upperBound else {
        throw .characterOutside(line: position.line, character: position.character, length: units)
      }
      let (scalar, length) = Self.decode(bytes, at: i)
      let n = Self.units(scalar, length, encoding)
      if units + n > position.character {
        throw .splitsCharacter(line: position.line, character: position.character, scalar: scalar ?? 0, units: n)
      }
      units += n
      i += length
    }
    return i
  }

  /// Where an LSP position falls, as libyaml's marks count (the space of
  /// ``SourceRange``), leniently: a character past its line's end is the
  /// line's end, one inside a character is that character.
  ///
  /// - Returns: `nil` for a line past the last one, or a negative line or character.
  /// - Complexity: O(length of the line), plus O(log lines) when the text
  ///   holds U+0085, U+2028 or U+2029.
  public func sourcePosition(of position: LSPPosition, in encoding: PositionEncoding) -> SourcePosition? {
    guard position.line >= 0, position.line < lineStarts.count, position.character >= 0 else { return nil }
    let content = contentRange(ofLine: position.line)
    var units = 0
    var i = content.lowerBound
    while i < content.upperBound {
      let (scalar, length) = Self.decode(bytes, at: i)
      let n = Self.units(scalar, length, encoding)
      if units + n > position.character { break }
      units += n
      i += length
    }
    guard let marks = markLineStarts else {
      return SourcePosition(line: position.line, column: scalars(from: content.lowerBound, to: i))
    }
    let line = Self.lastIndex(in: marks, atOrBefore: i)
    return SourcePosition(line: line, column: scalars(from: marks[line], to: i))
  }

  /// The number of scalars in `bytes[from ..< to]` (an invalid byte is one).
  private func scalars(from: Int, to: Int) -> Int {
    var count = 0
    var i = from
    while i < to {
      i += Self.decode(bytes, at: i).1
      count += 1
    }
    return count
  }

  /// A range as libyaml's marks give it, as an LSP range in `encoding`; a
  /// mark past the end of the text (libyaml ends a text that does not end in
  /// a line break at column 0 of the line after it) is the text's end.
  ///
  /// - Complexity: O(length of the lines of its ends).
  public func lspRange(_ range: SourceRange, in encoding: PositionEncoding) -> LSPRange {
    LSPRange(start: clampedLSPPosition(range.start, encoding), end: clampedLSPPosition(range.end, encoding))
  }

  private func clampedLSPPosition(_ position: SourcePosition, _ encoding: PositionEncoding) -> LSPPosition {
    let (line, character) = lspPosition(position, in: encoding)
    if line < lineStarts.count { return LSPPosition(line: line, character: character) }
    return end(in: encoding)
  }

  /// The position of the text's end: its last line, at that line's length.
  /// - Complexity: O(length of the last line).
  public func end(in encoding: PositionEncoding) -> LSPPosition {
    let last = lineStarts.count - 1
    return LSPPosition(line: last, character: length(of: contentRange(ofLine: last), encoding))
  }

  /// The index of the last element of the sorted `starts` that is at most `offset` (0 if none).
  fileprivate static func lastIndex(in starts: [Int], atOrBefore offset: Int) -> Int {
    var low = 0
    var high = starts.count - 1
    while low < high {
      let mid = (low + high + 1) / 2
      if starts[mid] <= offset { low = mid } else { high = mid - 1 }
    }
    return low
  }

  /// The index of the first element of the sorted `starts` that is at least `offset` (`count` if none).
  private static func firstIndex(in starts: [Int], atOrAfter offset: Int) -> Int {
    var low = 0
    var high = starts.count
    while low < high {
      let mid = (low + high) / 2
      if starts[mid] < offset { low = mid + 1 } else { high = mid }
    }
    return low
  }
}

// MARK: Changes

extension SourceText {
  /// One replacement made in a text, enough to undo it (``revert(_:)``).
  public struct Splice: Sendable, Equatable {
    /// Where it was made, in bytes.
    public let offset: Int
    /// The bytes it replaced.
    public let removed: [UInt8]
    /// How many bytes it put in their place.
    public let insertedCount: Int
  }

  /// Applies LSP content changes in order, each range against the text as
  /// the changes before it left it (LSP 3.17 §textDocument/didChange), each
  /// replacement a splice of the bytes; the line index follows.
  ///
  /// - Returns: the splices made, oldest first, for ``revert(_:)``.
  /// - Throws: ``ContentChangeError`` for the first range that is outside
  ///   the text, ends before it starts, or splits a character (see
  ///   ``offset(of:in:)``); then nothing is applied.
  /// - Complexity: per change, O(length of the lines of its range) plus a
  ///   splice (O(bytes after it)) and O(lines after it).
  public mutating func apply(_ changes: [ContentChange], in encoding: PositionEncoding) throws(ContentChangeError)
    -> [Splice]
  {
    var done: [Splice] = []
    for (index, change) in changes.enumerated() {
      let start: Int
      let end: Int
      do {
        start = try offset(of: change.range.start, in: encoding)
      } catch {
        revert(done)
        throw ContentChangeError(index: index, part: .start, reason: error.description(in: encoding))
      }
      do {
        end = try offset(of: change.range.end, in: encoding)
      } catch {
        revert(done)
        throw ContentChangeError(index: index, part: .end, reason: error.description(in: encoding))
      }
      guard start <= end else {
        revert(done)
        throw ContentChangeError(index: index, part: .range, reason: "ends before it starts")
      }
      done.append(replaceSubrange(start..<end, with: change.text))
    }
    return done
  }

  /// Undoes `splices` (from ``apply(_:in:)``), newest first.
  /// - Complexity: as many splices.
  public mutating func revert(_ splices: [Splice]) {
    for s in splices.reversed() {
      replaceSubrange(s.offset..<s.offset + s.insertedCount, with: s.removed)
    }
  }

  /// Replaces the bytes in `range` with `text`, and updates the line index
  /// around it.
  /// - Complexity: O(bytes after `range`) for the splice (in place when the
  ///   bytes are not shared), O(lines after it) for the index.
  @discardableResult
  public mutating func replaceSubrange(_ range: Range<Int>, with text: [UInt8]) -> Splice {
    let removed = Array(bytes[range])
    bytes.replaceSubrange(range, with: text)
    reindex(start: range.lowerBound, oldEnd: range.upperBound, newEnd: range.lowerBound + text.count)
    return Splice(offset: range.lowerBound, removed: removed, insertedCount: text.count)
  }

  /// Updates the line index after `bytes[start ..< oldEnd]` became
  /// `bytes[start ..< newEnd]`.
  ///
  /// A line starts after `\n`, or after a `\r` that no `\n` follows. A start
  /// before `start` is unchanged (its break and the byte after it are
  /// untouched); one from `oldEnd + 2` on only moves. Those between are
  /// found again from the bytes: a `\r` just before the splice may meet a
  /// `\n` just after it.
  private mutating func reindex(start: Int, oldEnd: Int, newEnd: Int) {
    let delta = newEnd - oldEnd
    let first = Self.firstIndex(in: lineStarts, atOrAfter: max(start, 1))
    let after = Self.firstIndex(in: lineStarts, atOrAfter: oldEnd + 2)
    var found: [Int] = []
    let n = bytes.count
    var i = max(start - 1, 0)
    while i <= newEnd, i < n {
      let b = bytes[i]
      if b == 0x0A || (b == 0x0D && (i + 1 == n || bytes[i + 1] != 0x0A)) { found.append(i + 1) }
      i += 1
    }
    lineStarts.replaceSubrange(first..<after, with: found)
    if delta != 0 {
      for k in (first + found.count)..<lineStarts.count { lineStarts[k] += delta }
    }
    // libyaml's extra line breaks are rare: with one in the text, or now
    // around the splice, its lines are counted again.
    if markLineStarts != nil || hasMarkLineBreak(in: max(start - 2, 0)..<min(newEnd + 2, n)) {
      markLineStarts = Self.lineIndex(bytes).marks
    }
  }

  /// Whether U+0085, U+2028 or U+2029 starts in `range`.
  private func hasMarkLineBreak(in range: Range<Int>) -> Bool {
    let n = bytes.count
    for i in range {
      let b = bytes[i]
      if b == 0xC2, i + 1 < n, bytes[i + 1] == 0x85 { return true }
      if b == 0xE2, i + 2 < n, bytes[i + 1] == 0x80, bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9 { return true }
    }
    return false
  }
}
