/// A position in a source text: 0-based line, and 0-based column counted in
/// Unicode scalar values from the start of that line, as libyaml counts them:
/// U+0085, U+2028 and U+2029 also end a line (YAML 1.1), where LSP lines do not.
///
/// The server converts a position to an LSP line and character in the
/// negotiated position encoding (LSP 3.17 §Position) with
/// ``SourceText/lspPosition(_:in:)``.
public struct SourcePosition: Sendable, Equatable, Comparable, Hashable {
  /// 0-based line.
  public var line: Int
  /// 0-based column, in Unicode scalar values from the start of the line.
  public var column: Int

  /// The position at `line`, `column` (both 0-based).
  public init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  /// Orders by line, then by column.
  public static func < (a: SourcePosition, b: SourcePosition) -> Bool {
    (a.line, a.column) < (b.line, b.column)
  }
}

/// A half-open range `[start, end)` of a source text.
public struct SourceRange: Sendable, Equatable, Hashable {
  /// The first position in the range.
  public var start: SourcePosition
  /// The position just past the range.
  public var end: SourcePosition

  /// The range `[start, end)`.
  public init(start: SourcePosition, end: SourcePosition) {
    self.start = start
    self.end = end
  }

  /// The empty range at 0:0, for items that were not read from a file.
  public static let zero = SourceRange(
    start: SourcePosition(line: 0, column: 0), end: SourcePosition(line: 0, column: 0))
}

/// A problem found in a group-definition file (LSP 3.17 §Diagnostic, `source: "outline"`).
public struct Diagnostic: Sendable, Equatable {
  /// LSP `DiagnosticSeverity`: 1 error, 2 warning.
  public enum Severity: Int, Sendable, Equatable {
    /// An error: the text is refused (`-32011`, or `applied: false`).
    case error = 1
    /// A warning: the text is still used (e.g. an unknown key).
    case warning = 2
  }

  /// What the diagnostic points at: the offending token, `end` at its end (PROTOCOL §8).
  public var range: SourceRange
  /// Error or warning.
  public var severity: Severity
  /// A stable kebab-case name, e.g. `duplicate-key`; see docs/protocol.md.
  public var code: String
  /// A sentence naming the field, e.g. `duplicate key "title"`.
  public var message: String

  /// A diagnostic with the given members.
  public init(range: SourceRange, severity: Severity, code: String, message: String) {
    self.range = range
    self.severity = severity
    self.code = code
    self.message = message
  }
}
