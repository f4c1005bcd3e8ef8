import Foundation

/// Why a byte sequence is not a JSON text (the JSON-RPC `-32700` cases).
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A human-readable reason, with the byte offset.
  public let description: String

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

  /// Parses one JSON text from a string; see ``parse(_:)-([UInt8])``.
  public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
    try parse(Data(text.utf8))
  }
}

// MARK: - Writing

extension JSONValue {
  /// The compact JSON text of this value, UTF-8, as Foundation's `JSONEncoder` writes it
  /// with `.sortedKeys` and `.withoutEscapingSlashes`. A non-finite double is written `null`.
  /// The text never contains a raw newline, so it can be framed as one ndjson line.
  public func encoded() -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    // Encoding a JSONValue cannot fail: non-finite doubles are written as null.
    return [UInt8]((try? encoder.encode(self)) ?? Data("null".utf8))
  }

  /// The compact JSON text of this value; see ``encoded()``.
  public var jsonText: String {
    String(decoding: encoded(), as: UTF8.self)
  }

  /// Appends the compact JSON text of this value to `out`; see ``encoded()``.
  public func write(to out: inout [UInt8]) {
    out.append(contentsOf: encoded())
  }
}
