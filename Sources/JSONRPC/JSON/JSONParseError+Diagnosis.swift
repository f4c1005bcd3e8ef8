import CSimdJSON

extension JSONParseError {
  /// The error for a text the parser refused: what is wrong and where, e.g. `not a JSON
  /// text: unexpected '}' after ',' (a trailing comma) at line 1, column 9 (byte 8)`.
  ///
  /// simdjson says only what kind of fault it met, not where, so the text is scanned again
  /// (RFC 8259's grammar) for the first fault; when the scan finds none (a limit of the
  /// parser's own), the parser's reason is given alone.
  ///
  /// - Complexity: O(n) in `bytes.count`; only called for a refused text.
  init(diagnosing bytes: UnsafeRawBufferPointer, refusal: csj_status) {
    var start = 0
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
    var scan = JSONSyntaxScan(UnsafeRawBufferPointer(rebasing: bytes[start...]))
    if let fault = scan.firstFault() {
      if let offset = fault.offset {
        self.init("not a JSON text: \(fault.reason) at \(Self.location(of: start + offset, in: bytes))")
      } else {
        self.init("not a JSON text: \(fault.reason)")
      }
    } else {
      self.init("not a JSON text: \(Self.reason(refusal))")
    }
  }

  /// `line L, column C (byte B)`: line and column from 1, columns counted in Unicode
  /// scalars; the byte offset from 0.
  static func location(of offset: Int, in bytes: UnsafeRawBufferPointer) -> String {
    var line = 1
    var column = 1
    // A byte order mark is not a column (editors do not show it).
    let hasMark = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
    for byte in bytes[(hasMark ? 3 : 0)..<min(max(offset, hasMark ? 3 : 0), bytes.count)] {
      if byte == UInt8(ascii: "\n") {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
    }
    return "line \(line), column \(column) (byte \(offset))"
  }

  private static func reason(_ refusal: csj_status) -> String {
    switch refusal {
    case CSJ_EMPTY: return "no value"
    case CSJ_INVALID_UTF8: return "invalid UTF-8"
    case CSJ_TOO_DEEP: return "nested deeper than \(JSONParser.maxNestingDepth) levels"
    case CSJ_INVALID_STRING: return "an invalid escape or an unpaired surrogate in a string"
    case CSJ_CONTROL_CHARACTER: return "an unescaped control character in a string"
    case CSJ_UNCLOSED_STRING: return "an unterminated string"
    case CSJ_INVALID_NUMBER: return "an invalid number, or one beyond the range of a double"
    case CSJ_INVALID_LITERAL: return "an invalid literal (expected true, false or null)"
    case CSJ_INVALID_STRUCTURE: return "misplaced brackets, commas or colons"
    case CSJ_TOO_LARGE: return "larger than the parser accepts (4 GiB)"
    case CSJ_OUT_OF_MEMORY: return "out of memory"
    default: return "refused by the parser"
    }
  }
}

/// Finds the first fault of a text that is not JSON (RFC 8259 §2–§8), for error messages:
/// the offset where the text stops being JSON and why. Never used to accept a text.
struct JSONSyntaxScan {
  private let bytes: UnsafeRawBufferPointer
  private var i = 0

  init(_ bytes: UnsafeRawBufferPointer) {
    self.bytes = bytes
  }

  /// A fault: its byte offset (`nil` for a text without a value) and a reason.
  typealias Fault = (offset: Int?, reason: String)

  /// The first fault, or `nil` when the text is JSON by the grammar.
  ///
  /// - Complexity: O(n); iterative, so deep nesting costs no stack.
  mutating func firstFault() -> Fault? {
    if let offset = firstInvalidUTF8() { return (offset, "invalid UTF-8") }
    skipWhitespace()
    if i == bytes.count { return (nil, "no value (the text is empty or blank)") }
    var open: [UInt8] = []
    value: while true {
      skipWhitespace()
      guard i < bytes.count else { return (i, "unexpected end of text, expected a value") }
      switch bytes[i] {
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        if open.count == JSONParser.maxNestingDepth {
          return (i, "nested deeper than \(JSONParser.maxNestingDepth) levels")
        }
        let bracket = bytes[i]
        open.append(bracket)
        i += 1
        skipWhitespace()
        let close = bracket == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
        if i < bytes.count, bytes[i] == close {
          open.removeLast()
          i += 1
        } else if bracket == UInt8(ascii: "{") {
          if let fault = memberName(afterComma: false) { return fault }
          continue value
        } else {
          continue value
        }
      case UInt8(ascii: "\""):
        if let fault = string() { return fault }
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        if let fault = number() { return fault }
      case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
        if let fault = literal() { return fault }
      default:
        return (i, "unexpected \(character(at: i)), expected a value")
      }
      // After a value: the end of the text, a comma or a closing bracket.
      while true {
        skipWhitespace()
        guard let bracket = open.last else {
          return i < bytes.count ? (i, "unexpected \(character(at: i)) after the value") : nil
        }
        let close = bracket == UInt8(ascii: "{") ? "}" : "]"
        guard i < bytes.count else { return (i, "unexpected end of text, expected ',' or '\(close)'") }
        if bytes[i] == UInt8(ascii: ",") {
          i += 1
          skipWhitespace()
          if i < bytes.count, bytes[i] == UInt8(ascii: "]") || bytes[i] == UInt8(ascii: "}") {
            return (i, "unexpected \(character(at: i)) after ',' (a trailing comma)")
          }
          if bracket == UInt8(ascii: "{"), let fault = memberName(afterComma: true) { return fault }
          continue value
        }
        guard bytes[i] == close.utf8.first! else {
          return (i, "unexpected \(character(at: i)), expected ',' or '\(close)'")
        }
        open.removeLast()
        i += 1
      }
    }
  }

  /// A member's name and its colon.
  private mutating func memberName(afterComma: Bool) -> Fault? {
    skipWhitespace()
    guard i < bytes.count else { return (i, "unexpected end of text, expected a member name") }
    guard bytes[i] == UInt8(ascii: "\"") else {
      return (i, "unexpected \(character(at: i)), expected a member name (a string)")
    }
    if let fault = string() { return fault }
    skipWhitespace()
    guard i < bytes.count else { return (i, "unexpected end of text, expected ':'") }
    guard bytes[i] == UInt8(ascii: ":") else { return (i, "unexpected \(character(at: i)), expected ':'") }
    i += 1
    return nil
  }

  /// A string, from its opening quote.
  private mutating func string() -> Fault? {
    let start = i
    i += 1
    while i < bytes.count {
      let c = bytes[i]
      switch c {
      case UInt8(ascii: "\""):
        i += 1
        return nil
      case 0..<0x20:
        return (i, "unescaped control character \(scalarName(UInt32(c))) in a string")
      case UInt8(ascii: "\\"):
        guard i + 1 < bytes.count else { return (start, "unterminated string") }
        switch bytes[i + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
          UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
          i += 2
        case UInt8(ascii: "u"):
          guard let unit = hex4(at: i + 2) else { return (i, "invalid \\u escape (expected 4 hex digits)") }
          if unit >= 0xDC00, unit < 0xE000 {
            return (i, "unpaired surrogate escape \\u\(hex(unit)) (a low surrogate without a high one)")
          }
          if unit >= 0xD800, unit < 0xDC00 {
            guard i + 7 < bytes.count, bytes[i + 6] == UInt8(ascii: "\\"), bytes[i + 7] == UInt8(ascii: "u"),
              let low = hex4(at: i + 8), low >= 0xDC00, low < 0xE000
            else {
              return (i, "unpaired surrogate escape \\u\(hex(unit)) (a high surrogate without a low one)")
            }
            i += 12
          } else {
            i += 6
          }
        default:
          return (i, "invalid escape \\\(character(at: i + 1, quoted: false))")
        }
      default:
        i += 1
      }
    }
    return (start, "unterminated string")
  }

  /// A number (RFC 8259 §6), which must also be within the range of a double.
  private mutating func number() -> Fault? {
    let start = i
    if bytes[i] == UInt8(ascii: "-") { i += 1 }
    guard i < bytes.count, isDigit(bytes[i]) else { return (start, "invalid number") }
    if bytes[i] == UInt8(ascii: "0") {
      i += 1
    } else {
      while i < bytes.count, isDigit(bytes[i]) { i += 1 }
    }
    if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
      i += 1
      guard i < bytes.count, isDigit(bytes[i]) else { return (start, "invalid number") }
      while i < bytes.count, isDigit(bytes[i]) { i += 1 }
    }
    if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
      i += 1
      if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
      guard i < bytes.count, isDigit(bytes[i]) else { return (start, "invalid number") }
      while i < bytes.count, isDigit(bytes[i]) { i += 1 }
    }
    if i < bytes.count,
      isWordByte(bytes[i]) || bytes[i] == UInt8(ascii: ".") || bytes[i] == UInt8(ascii: "+")
        || bytes[i] == UInt8(ascii: "-")
    {
      return (start, "invalid number")
    }
    let token = String(decoding: bytes[start..<i], as: UTF8.self)
    guard let value = Double(token), value.isFinite else {
      return (start, "number \(token.prefix(40)) beyond the range of a double")
    }
    return nil
  }

  /// `true`, `false` or `null`.
  private mutating func literal() -> Fault? {
    let word: String
    switch bytes[i] {
    case UInt8(ascii: "t"): word = "true"
    case UInt8(ascii: "f"): word = "false"
    default: word = "null"
    }
    let end = i + word.utf8.count
    guard end <= bytes.count, bytes[i..<end].elementsEqual(word.utf8), end == bytes.count || !isWordByte(bytes[end])
    else {
      return (i, "invalid literal (expected true, false or null)")
    }
    i = end
    return nil
  }

  private mutating func skipWhitespace() {
    while i < bytes.count {
      switch bytes[i] {
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): i += 1
      default: return
      }
    }
  }

  /// The offset of the first byte that does not begin valid UTF-8, or `nil`.
  private func firstInvalidUTF8() -> Int? {
    var offset = 0
    var decoder = UTF8()
    var iterator = bytes.makeIterator()
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar): offset += UTF8.width(scalar)
      case .emptyInput: return nil
      case .error: return offset
      }
    }
  }

  private func hex4(at offset: Int) -> UInt32? {
    guard offset + 4 <= bytes.count else { return nil }
    var value: UInt32 = 0
    for byte in bytes[offset..<offset + 4] {
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: return nil
      }
      value = value << 4 | UInt32(digit)
    }
    return value
  }

  private func hex(_ unit: UInt32) -> String {
    let digits = String(unit, radix: 16, uppercase: false)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }

  private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

  private func isWordByte(_ byte: UInt8) -> Bool {
    isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || byte >= 0x80
  }

  /// `U+0001`.
  private func scalarName(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }

  /// The character at `offset` for a message: `'x'`, or `U+000B` for an invisible one.
  private func character(at offset: Int, quoted: Bool = true) -> String {
    let tail = bytes[offset..<min(offset + 4, bytes.count)]
    guard let scalar = String(decoding: tail, as: UTF8.self).unicodeScalars.first else { return "end of text" }
    if scalar.value < 0x21 || scalar.value == 0x7F || scalar.properties.generalCategory == .format {
      return scalarName(scalar.value)
    }
    return quoted ? "'\(scalar)'" : "\(scalar)"
  }
}
