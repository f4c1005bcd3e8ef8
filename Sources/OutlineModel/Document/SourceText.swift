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
public struct SourceText: Sendable {
  /// The file's bytes, without a leading byte order mark.
  public let bytes: [UInt8]
  /// Byte offset in ``bytes`` where each LSP line starts; `lineStarts[0] == 0`.
  private let lineStarts: [Int]
  /// Byte offset in ``bytes`` where each line starts as libyaml counts
  /// lines; `nil` when the text has no U+0085, U+2028 or U+2029, so that
  /// libyaml's lines are LSP's.
  private let markLineStarts: [Int]?

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
    self.bytes = body
    self.lineStarts = starts
    self.markLineStarts = markStarts.isEmpty ? nil : (starts + markStarts).sorted()
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
    let start = lineStarts[line]
    var end = line + 1 < lineStarts.count ? lineStarts[line + 1] : bytes.count
    while end > start, bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
    return bytes[start..<end]
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
    // The last line start at or before `offset`.
    var low = 0
    var high = lineStarts.count - 1
    while low < high {
      let mid = (low + high + 1) / 2
      if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
    }
    return low
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
