/// A strict RFC 8259 reader over UTF-8 bytes, producing ``JSONValue``.
///
/// Written for the hot path: on Linux, `JSONDecoder` has to try each alternative (and
/// build a thrown error) for every node of a `JSONValue`, and `JSONSerialization` spends
/// most of its time bridging `NSString`/`NSNumber`; both ran at about 40k small messages/s
/// here, this reader at several hundred thousand.
///
/// Refused: invalid UTF-8 (checked by `String(validating:)`), unpaired surrogate escapes,
/// unescaped control characters, trailing commas, leading zeros, trailing garbage, and
/// nesting deeper than ``maxDepth`` (so a body nested 100,000 deep is an error, not a
/// stack overflow). A duplicate key keeps the last value.
struct JSONReader {
  /// The deepest nesting of arrays and objects accepted.
  static let maxDepth = 512

  private let bytes: UnsafeRawBufferPointer
  private var index = 0

  private init(_ bytes: UnsafeRawBufferPointer) {
    self.bytes = bytes
  }

  /// Parses one JSON text.
  static func parse(_ bytes: UnsafeRawBufferPointer) throws(JSONParseError) -> JSONValue {
    var reader = JSONReader(bytes)
    reader.skipWhitespace()
    let value = try reader.readValue(depth: 0)
    reader.skipWhitespace()
    if reader.index != bytes.count { throw reader.error("unexpected data after the value") }
    return value
  }

  private func error(_ what: String) -> JSONParseError {
    JSONParseError("\(what) at byte \(index)")
  }

  private mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  private mutating func expect(_ literal: StaticString, _ value: JSONValue) throws(JSONParseError) -> JSONValue {
    let count = literal.utf8CodeUnitCount
    guard index + count <= bytes.count else { throw error("invalid literal") }
    for k in 0..<count where bytes[index + k] != literal.utf8Start[k] {
      throw error("invalid literal")
    }
    index += count
    return value
  }

  private mutating func readValue(depth: Int) throws(JSONParseError) -> JSONValue {
    guard index < bytes.count else { throw error("unexpected end of input") }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try readObject(depth: depth + 1)
    case UInt8(ascii: "["): return try readArray(depth: depth + 1)
    case UInt8(ascii: "\""): return .string(try readString())
    case UInt8(ascii: "t"): return try expect("true", .bool(true))
    case UInt8(ascii: "f"): return try expect("false", .bool(false))
    case UInt8(ascii: "n"): return try expect("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try readNumber()
    default: throw error("unexpected character")
    }
  }

  private mutating func readObject(depth: Int) throws(JSONParseError) -> JSONValue {
    if depth > Self.maxDepth { throw error("nesting deeper than \(Self.maxDepth)") }
    index += 1
    var members: [String: JSONValue] = [:]
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return .object(members)
    }
    while true {
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a key") }
      let key = try readString()
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
      index += 1
      skipWhitespace()
      members[key] = try readValue(depth: depth)
      skipWhitespace()
      guard index < bytes.count else { throw error("unexpected end of input") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        skipWhitespace()
      } else if bytes[index] == UInt8(ascii: "}") {
        index += 1
        return .object(members)
      } else {
        throw error("expected ',' or '}'")
      }
    }
  }

  private mutating func readArray(depth: Int) throws(JSONParseError) -> JSONValue {
    if depth > Self.maxDepth { throw error("nesting deeper than \(Self.maxDepth)") }
    index += 1
    var elements: [JSONValue] = []
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return .array(elements)
    }
    while true {
      elements.append(try readValue(depth: depth))
      skipWhitespace()
      guard index < bytes.count else { throw error("unexpected end of input") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        skipWhitespace()
      } else if bytes[index] == UInt8(ascii: "]") {
        index += 1
        return .array(elements)
      } else {
        throw error("expected ',' or ']'")
      }
    }
  }

  /// Reads a string starting at its opening quote.
  private mutating func readString() throws(JSONParseError) -> String {
    index += 1
    let start = index
    // Fast path: no escapes.
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        let text = try validated(start..<index)
        index += 1
        return text
      }
      if byte == UInt8(ascii: "\\") { break }
      if byte < 0x20 { throw error("unescaped control character in a string") }
      index += 1
    }
    var result = try validated(start..<index)
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        index += 1
        return result
      }
      if byte == UInt8(ascii: "\\") {
        index += 1
        guard index < bytes.count else { break }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""): result.append("\"")
        case UInt8(ascii: "\\"): result.append("\\")
        case UInt8(ascii: "/"): result.append("/")
        case UInt8(ascii: "b"): result.append("\u{08}")
        case UInt8(ascii: "f"): result.append("\u{0C}")
        case UInt8(ascii: "n"): result.append("\n")
        case UInt8(ascii: "r"): result.append("\r")
        case UInt8(ascii: "t"): result.append("\t")
        case UInt8(ascii: "u"):
          let unit = try readHex4()
          var scalarValue = UInt32(unit)
          if (0xD800..<0xDC00).contains(unit) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else { throw error("unpaired high surrogate escape") }
            index += 2
            let low = try readHex4()
            guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired high surrogate escape") }
            scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
          } else if (0xDC00..<0xE000).contains(unit) {
            throw error("unpaired low surrogate escape")
          }
          result.unicodeScalars.append(Unicode.Scalar(scalarValue)!)
        default:
          throw error("invalid escape")
        }
        continue
      }
      if byte < 0x20 { throw error("unescaped control character in a string") }
      let runStart = index
      while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\"),
        bytes[index] >= 0x20
      {
        index += 1
      }
      result += try validated(runStart..<index)
    }
    throw error("unterminated string")
  }

  private func validated(_ range: Range<Int>) throws(JSONParseError) -> String {
    guard let text = String(validating: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self) else {
      throw JSONParseError("invalid UTF-8 in a string at byte \(range.lowerBound)")
    }
    return text
  }

  private mutating func readHex4() throws(JSONParseError) -> UInt16 {
    guard index + 4 <= bytes.count else { throw error("truncated \\u escape") }
    var value: UInt16 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw error("invalid \\u escape")
      }
      value = value << 4 | UInt16(digit)
      index += 1
    }
    return value
  }

  private mutating func readDigits() -> Int {
    let start = index
    while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
    return index - start
  }

  /// Reads a number (RFC 8259 §6). An integer within `Int64` is ``JSONValue/int(_:)``; a
  /// fraction or exponent whose value is integral and within `Int64` is too (as
  /// `JSONDecoder` reads `7.0`); anything else is ``JSONValue/double(_:)``.
  private mutating func readNumber() throws(JSONParseError) -> JSONValue {
    let start = index
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    let intStart = index
    let intDigits = readDigits()
    if intDigits == 0 { throw error("invalid number") }
    if intDigits > 1, bytes[intStart] == UInt8(ascii: "0") { throw error("leading zero in a number") }
    var isInteger = true
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      isInteger = false
      if readDigits() == 0 { throw error("invalid number") }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      isInteger = false
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
      if readDigits() == 0 { throw error("invalid number") }
    }
    let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    if isInteger, let i = Int64(text) { return .int(i) }
    guard let d = Double(text), d.isFinite else { throw JSONParseError("number \(text) is out of range") }
    if d == d.rounded(.towardZero), d >= -9.223_372_036_854_775_808e18, d < 9.223_372_036_854_775_808e18 {
      return .int(Int64(d))
    }
    return .double(d)
  }
}
