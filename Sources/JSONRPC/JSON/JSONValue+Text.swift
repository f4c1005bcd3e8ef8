import Foundation

/// Why a byte sequence is not a JSON text (the JSON-RPC `-32700` cases).
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A human-readable reason, with the line and column of the fault when known.
  public let description: String

  /// An error with the given reason.
  public init(_ description: String) {
    self.description = description
  }
}

extension JSONValue {
  /// Parses one JSON text (RFC 8259; any value at the top level) with simdjson, through a
  /// shared ``JSONParser`` (see there for what is accepted).
  ///
  /// Invalid UTF-8, unpaired UTF-16 surrogate escapes (`"\ud800"`, `"\udc00"`),
  /// unescaped control characters, trailing commas or garbage and nesting deeper than
  /// ``maxNestingDepth`` are all errors, never crashes. A repeated object name keeps the
  /// last value.
  ///
  /// - Parameter bytes: the UTF-8 text.
  /// - Returns: the value; integral numbers within `Int64` are ``int(_:)`` (`7.0` too),
  ///   other numbers, integers beyond 64 bits included, ``double(_:)``.
  /// - Throws: ``JSONParseError`` for anything that is not a JSON text, naming the line and
  ///   column of the fault.
  /// - Complexity: O(n) in the length of `bytes`.
  public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
    try JSONDocument(parsing: bytes).root.jsonValue
  }

  /// The deepest nesting of arrays and objects accepted: ``JSONParser/maxNestingDepth``.
  public static let maxNestingDepth = JSONParser.maxNestingDepth

  /// Parses one JSON text from a string; see ``parse(_:)-([UInt8])``.
  public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
    try parse(Array(text.utf8))
  }
}
