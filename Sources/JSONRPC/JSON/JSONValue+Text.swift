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
  /// Parses one JSON text (RFC 8259; a top-level scalar is allowed) with ``JSONReader``.
  ///
  /// Strict: invalid UTF-8, unpaired UTF-16 surrogate escapes (`"\ud800"`), unescaped
  /// control characters, trailing commas, trailing garbage and nesting deeper than 512 are
  /// all errors, never crashes. A duplicate key keeps the last value.
  ///
  /// - Parameter bytes: the UTF-8 text.
  /// - Returns: the value; integral numbers within `Int64` are ``int(_:)`` (`7.0` too).
  /// - Throws: ``JSONParseError`` for anything that is not a JSON text.
  /// - Complexity: O(n) in the length of `bytes`.
  public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
    try bytes.withUnsafeBytes { raw in
      Result { () throws(JSONParseError) in try JSONReader.parse(raw) }
    }.get()
  }

  /// Parses one JSON text from `Data`; see ``parse(_:)-([UInt8])``.
  public static func parse(_ bytes: Data) throws(JSONParseError) -> JSONValue {
    try bytes.withUnsafeBytes { raw in
      Result { () throws(JSONParseError) in try JSONReader.parse(raw) }
    }.get()
  }

  /// Parses one JSON text from a string; see ``parse(_:)-([UInt8])``.
  public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
    try parse(Array(text.utf8))
  }
}

// MARK: - Writing

extension JSONValue {
  /// The compact JSON text of this value, UTF-8.
  ///
  /// Keys are sorted (as `JSONEncoder.OutputFormatting.sortedKeys`), `/` is not escaped
  /// (`.withoutEscapingSlashes`), control characters are escaped, non-ASCII is written as
  /// is. A non-finite double is written `null`. The text never contains a raw newline, so it
  /// can be framed as one ndjson line.
  ///
  /// - Complexity: O(n) in the size of the value, plus O(k log k) per object of k keys.
  public func encoded() -> [UInt8] {
    var out = [UInt8]()
    out.reserveCapacity(128)
    write(to: &out)
    return out
  }

  /// The compact JSON text of this value; see ``encoded()``.
  public var jsonText: String {
    String(decoding: encoded(), as: UTF8.self)
  }

  /// Appends the compact JSON text of this value to `out`; see ``encoded()``.
  public func write(to out: inout [UInt8]) {
    switch self {
    case .null:
      out.append(contentsOf: "null".utf8)
    case .bool(let b):
      out.append(contentsOf: (b ? "true" : "false").utf8)
    case .int(let i):
      out.append(contentsOf: String(i).utf8)
    case .double(let d):
      if d.isFinite {
        out.append(contentsOf: d.description.utf8)
      } else {
        out.append(contentsOf: "null".utf8)
      }
    case .string(let s):
      JSONValue.writeString(s, to: &out)
    case .array(let a):
      out.append(UInt8(ascii: "["))
      for (n, element) in a.enumerated() {
        if n > 0 { out.append(UInt8(ascii: ",")) }
        element.write(to: &out)
      }
      out.append(UInt8(ascii: "]"))
    case .object(let o):
      out.append(UInt8(ascii: "{"))
      for (n, key) in o.keys.sorted().enumerated() {
        if n > 0 { out.append(UInt8(ascii: ",")) }
        JSONValue.writeString(key, to: &out)
        out.append(UInt8(ascii: ":"))
        o[key]!.write(to: &out)
      }
      out.append(UInt8(ascii: "}"))
    }
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)

  private static func writeString(_ s: String, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    for byte in s.utf8 {
      switch byte {
      case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
      case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
      case UInt8(ascii: "\n"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
      case UInt8(ascii: "\r"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
      case UInt8(ascii: "\t"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
      case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
      case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
      case 0..<0x20:
        out.append(contentsOf: "\\u00".utf8)
        out.append(hexDigits[Int(byte >> 4)])
        out.append(hexDigits[Int(byte & 0xF)])
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
  }
}
