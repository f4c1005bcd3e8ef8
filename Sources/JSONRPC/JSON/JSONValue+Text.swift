import Foundation

/// Why a byte sequence is not a JSON text (the JSON-RPC `-32700` cases).
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A human-readable reason, with the byte offset.
  public let description: String

  /// An error with the given reason.
  public init(_ description: String) {
    self.description = description
  }
}

extension JSONValue {
  /// Parses one JSON text (RFC 8259; a top-level scalar is allowed) with Foundation's
  /// `JSONDecoder`.
  ///
  /// Invalid UTF-8, unpaired UTF-16 surrogate escapes (`"\ud800"`), unescaped control
  /// characters, trailing garbage and nesting deeper than `JSONDecoder` allows (512) are all
  /// errors, never crashes. A duplicate key keeps the last value.
  ///
  /// - Parameter bytes: the UTF-8 text.
  /// - Returns: the value; integral numbers within `Int64` are ``int(_:)`` (`7.0` too).
  /// - Throws: ``JSONParseError`` for anything that is not a JSON text.
  /// - Complexity: O(n) in the length of `bytes`.
  public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
    try parse(Data(bytes))
  }

  /// Parses one JSON text from `Data`; see ``parse(_:)-([UInt8])``.
  public static func parse(_ bytes: Data) throws(JSONParseError) -> JSONValue {
    do {
      return try JSONDecoder().decode(JSONValue.self, from: bytes)
    } catch let error as DecodingError {
      if let reason = diagnose(bytes) { throw JSONParseError("not a JSON text: \(reason)") }
      switch error {
      case .dataCorrupted(let context):
        throw JSONParseError("not a JSON text: \(context.underlyingError.map { "\($0)" } ?? context.debugDescription)")
      default:
        throw JSONParseError("not a JSON text")
      }
    } catch {
      throw JSONParseError("not a JSON text: \(error)")
    }
  }

  /// The deepest nesting `JSONDecoder` accepts.
  public static let maxNestingDepth = 512

  /// Why `bytes` was refused, when it is one of the reasons Foundation does not name:
  /// invalid UTF-8 (with the offset of the first bad byte) or nesting deeper than
  /// ``maxNestingDepth``. Only called after a failed parse.
  ///
  /// - Complexity: O(n) in the length of `bytes`.
  static func diagnose(_ bytes: Data) -> String? {
    var offset = 0
    var decoder = UTF8()
    var iterator = bytes.makeIterator()
    decoding: while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar): offset += UTF8.width(scalar)
      case .emptyInput: break decoding
      case .error: return "invalid UTF-8 at byte \(offset)"
      }
    }
    var depth = 0
    var inString = false
    var escaped = false
    for (i, byte) in bytes.enumerated() {
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""): inString = true
      case UInt8(ascii: "["), UInt8(ascii: "{"):
        depth += 1
        if depth > maxNestingDepth { return "nested deeper than \(maxNestingDepth) levels at byte \(i)" }
      case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
      default: break
      }
    }
    return nil
  }

  /// Parses one JSON text from a string; see ``parse(_:)-([UInt8])``.
  public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
    try parse(Data(text.utf8))
  }
}
