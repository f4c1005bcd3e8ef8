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
/// that a ``SourcePosition`` (column in Unicode scalars, as libyaml counts)
/// can be given in any ``PositionEncoding`` (LSP 3.17 §Position).
///
/// Lines end at `\n`, `\r\n` or `\r`, as in LSP. A leading UTF-8 byte order
/// mark is not part of line 0 (YAML readers skip it and so do editors).
/// A byte that is not part of valid UTF-8 counts as one scalar (one byte,
/// one UTF-16 unit), as a U+FFFD shown in its place.
public struct SourceText: Sendable {
  /// The file's bytes, without a leading byte order mark.
  public let bytes: [UInt8]
  /// Byte offset in ``bytes`` where each line starts; `lineStarts[0] == 0`.
  private let lineStarts: [Int]

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
    var i = 0
    let n = body.count
    while i < n {
      let b = body[i]
      if b == 0x0A {
        starts.append(i + 1)
      } else if b == 0x0D {
        if i + 1 < n, body[i + 1] == 0x0A { i += 1 }
        starts.append(i + 1)
      }
      i += 1
    }
    self.bytes = body
    self.lineStarts = starts
  }

  /// Indexes the lines of `text`.
  public init(_ text: String) {
    self.init(Array(text.utf8))
  }

  /// The number of lines (an empty text, or one ending in a line break, ends with an empty line).
  public var lineCount: Int { lineStarts.count }

  /// The bytes of line `line` without its line break; empty past the end.
  public func lineBytes(_ line: Int) -> ArraySlice<UInt8> {
    guard line >= 0, line < lineStarts.count else { return [] }
    let start = lineStarts[line]
    var end = line + 1 < lineStarts.count ? lineStarts[line + 1] : bytes.count
    while end > start, bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
    return bytes[start..<end]
  }

  /// Converts a column counted in Unicode scalars to a column in `encoding`.
  ///
  /// - Parameters:
  ///   - position: 0-based line, column in Unicode scalars.
  ///   - encoding: the negotiated position encoding.
  /// - Returns: the `character` of an LSP `Position` on the same line. A
  ///   column past the line's end gives the line's length (LSP: the position
  ///   defaults back to the line's end); a line past the end gives `column`.
  /// - Complexity: O(column).
  public func character(of position: SourcePosition, in encoding: PositionEncoding) -> Int {
    guard position.line >= 0, position.line < lineStarts.count else { return position.column }
    let line = lineBytes(position.line)
    var scalars = 0
    var units = 0
    var i = line.startIndex
    while scalars < position.column, i < line.endIndex {
      let (scalar, length) = Self.decode(line, at: i)
      i += length
      scalars += 1
      switch encoding {
      case .utf8: units += length
      case .utf16: units += (scalar ?? 0) > 0xFFFF ? 2 : 1
      case .utf32: units += 1
      }
    }
    return units
  }

  /// Decodes one scalar at `i`: its value (nil when the bytes are not valid UTF-8) and its length in bytes.
  private static func decode(_ s: ArraySlice<UInt8>, at i: Int) -> (UInt32?, Int) {
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

  /// Converts a position to LSP's `(line, character)` in `encoding`.
  public func lspPosition(_ position: SourcePosition, in encoding: PositionEncoding) -> (line: Int, character: Int) {
    (position.line, character(of: position, in: encoding))
  }
}
