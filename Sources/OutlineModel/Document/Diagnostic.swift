/// A position in a source text: 0-based line, and 0-based column counted in
/// Unicode scalar values from the start of that line (libyaml's unit).
///
/// The server converts columns to the negotiated position encoding
/// (LSP 3.17 §Position) with ``SourceText``.
public struct SourcePosition: Sendable, Equatable, Comparable, Hashable {
  public var line: Int
  public var column: Int

  public init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  public static func < (a: SourcePosition, b: SourcePosition) -> Bool {
    (a.line, a.column) < (b.line, b.column)
  }
}

/// A half-open range `[start, end)` of a source text.
public struct SourceRange: Sendable, Equatable, Hashable {
  public var start: SourcePosition
  public var end: SourcePosition

  public init(start: SourcePosition, end: SourcePosition) {
    self.start = start
    self.end = end
  }

  public static let zero = SourceRange(
    start: SourcePosition(line: 0, column: 0), end: SourcePosition(line: 0, column: 0))
}

/// A problem found in a group-definition file (LSP 3.17 §Diagnostic, `source: "outline"`).
public struct Diagnostic: Sendable, Equatable {
  /// LSP `DiagnosticSeverity`: 1 error, 2 warning.
  public enum Severity: Int, Sendable, Equatable {
    case error = 1
    case warning = 2
  }

  public var range: SourceRange
  public var severity: Severity
  /// A stable kebab-case name, e.g. `duplicate-key`; see docs/protocol.md.
  public var code: String
  /// A sentence naming the field, e.g. `duplicate key "title"`.
  public var message: String

  public init(range: SourceRange, severity: Severity, code: String, message: String) {
    self.range = range
    self.severity = severity
    self.code = code
    self.message = message
  }
}
