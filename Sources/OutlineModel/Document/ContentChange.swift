/// A position in a text as LSP gives one (LSP 3.17 §Position): a 0-based
/// `line` (lines end at `\n`, `\r\n` or `\r`) and a 0-based `character`
/// offset on that line, counted in code units of the negotiated
/// ``PositionEncoding``.
public struct LSPPosition: Sendable, Equatable, Hashable, Comparable {
  /// 0-based line.
  public var line: Int
  /// 0-based offset on the line, in code units of the position encoding.
  public var character: Int

  /// The position at `line`, `character` (both 0-based).
  public init(line: Int, character: Int) {
    self.line = line
    self.character = character
  }

  /// Orders by line, then by character.
  public static func < (a: LSPPosition, b: LSPPosition) -> Bool {
    (a.line, a.character) < (b.line, b.character)
  }
}

/// A half-open range `[start, end)` of a text as LSP gives one (LSP 3.17 §Range).
public struct LSPRange: Sendable, Equatable, Hashable {
  /// The first position in the range.
  public var start: LSPPosition
  /// The position just past the range.
  public var end: LSPPosition

  /// The range `[start, end)`.
  public init(start: LSPPosition, end: LSPPosition) {
    self.start = start
    self.end = end
  }
}

/// One change of a text: what `range` covers is replaced by `text`, as
/// LSP's `TextDocumentContentChangeEvent` with a range (LSP 3.17
/// §textDocument/didChange). A list of changes applies in order, each range
/// against the text as the changes before it left it
/// (``SourceText/apply(_:in:)``).
public struct ContentChange: Sendable, Equatable {
  /// What is replaced, in the negotiated position encoding.
  public var range: LSPRange
  /// The new text, as UTF-8.
  public var text: [UInt8]

  /// A change replacing `range` by `text` (UTF-8).
  public init(range: LSPRange, text: [UInt8]) {
    self.range = range
    self.text = text
  }
}

/// Why a list of content changes was refused (and none of it applied): the
/// change, the part of its range, and why.
public struct ContentChangeError: Error, Sendable, Equatable {
  /// The part of a change's range that is wrong.
  public enum Part: String, Sendable, Equatable {
    /// The range as a whole (it ends before it starts).
    case range
    /// Its `start`.
    case start
    /// Its `end`.
    case end
  }

  /// The 0-based index of the change in the list.
  public var index: Int
  /// Which part of its range is wrong.
  public var part: Part
  /// Why, in words: `is outside the text: …`, `splits a character: …` or `ends before it starts`.
  public var reason: String

  /// The error of change `index`.
  public init(index: Int, part: Part, reason: String) {
    self.index = index
    self.part = part
    self.reason = reason
  }
}

/// Why an ``LSPPosition`` names no place between two characters of a text
/// (``SourceText/offset(of:in:)``).
public enum PositionProblem: Error, Sendable, Equatable {
  /// The line is past the last one (or negative).
  case lineOutside(line: Int, lineCount: Int)
  /// The character is past the end of its line (or negative); `length` is
  /// the line's length in code units, without its line break.
  case characterOutside(line: Int, character: Int, length: Int)
  /// The character falls inside `scalar` (a UTF-8 sequence, or a UTF-16
  /// surrogate pair), which takes `units` code units.
  case splitsCharacter(line: Int, character: Int, scalar: UInt32, units: Int)

  /// The problem in words, e.g. `is outside the text: line 3 is 5 utf-16
  /// code units long, character 9 is past its end`.
  public func description(in encoding: PositionEncoding) -> String {
    switch self {
    case .lineOutside(let line, let lineCount):
      return "is outside the text: it has \(lineCount) line\(lineCount == 1 ? "" : "s") (0 to \(lineCount - 1)), "
        + "not line \(line)"
    case .characterOutside(let line, let character, let length):
      return "is outside the text: line \(line) is \(length) \(encoding.rawValue) code unit\(length == 1 ? "" : "s") "
        + "long, character \(character) is past its end"
    case .splitsCharacter(let line, let character, let scalar, let units):
      let what = encoding == .utf16 ? "the surrogate pair" : "the \(units)-byte UTF-8 sequence"
      let hex = String(scalar, radix: 16, uppercase: true)
      let name = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
      return "splits a character: \(encoding.rawValue) character \(character) of line \(line) falls inside "
        + "\(what) of \(name)"
    }
  }
}
