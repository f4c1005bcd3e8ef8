extension JSONWriter {
  /// Writes a string value, quoted and escaped (RFC 8259 §7).
  ///
  /// - `"` and `\` are written `\"` and `\\`;
  /// - U+0008, U+0009, U+000A, U+000C and U+000D are written `\b`, `\t`, `\n`, `\f`, `\r`,
  ///   the other characters U+0000–U+001F `\u00XX` (lowercase hex);
  /// - U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR are written `\u2028` and
  ///   `\u2029`: JSON allows them raw, but JavaScript before ES2019 does not, and some
  ///   line-oriented readers split on them;
  /// - everything else is copied as raw UTF-8 (U+007F and `/` included).
  ///
  /// A run of characters that need no escape is copied with one `memcpy`; the scan for the
  /// next character to escape reads 8 bytes at a time.
  ///
  /// - Complexity: O(n) in the UTF-8 length of `string`; a string without characters to
  ///   escape costs one scan and one copy.
  public mutating func value(_ string: String) {
    scalar(reserving: 0)
    quoted(string)
    needsComma = true
  }

  /// Writes a string value from UTF-8 bytes, escaped as ``value(_:)-(String)`` does.
  ///
  /// - Parameter utf8: well-formed UTF-8; the bytes are copied as they are, apart from the
  ///   escapes, so ill-formed input gives ill-formed output.
  /// - Complexity: O(n) in `utf8.count`.
  public mutating func value(utf8: UnsafeBufferPointer<UInt8>) {
    scalar(reserving: 0)
    quoted(utf8)
    needsComma = true
  }

  /// Writes `string` quoted and escaped, without a comma or shape check.
  @usableFromInline
  mutating func quoted(_ string: String) {
    // Native strings are contiguous UTF-8: no copy. Others (bridged) are made so first.
    if string.utf8.withContiguousStorageIfAvailable({ quoted($0) }) == nil {
      var copy = string
      copy.withUTF8 { quoted($0) }
    }
  }

  /// Writes `utf8` quoted and escaped, without a comma or shape check.
  ///
  /// The common case, a text with nothing to escape, is copied in the same pass that checks
  /// it, 8 bytes at a time; the first byte that may need an escape hands over to
  /// ``quotedEscaping(_:from:count:)``.
  @usableFromInline
  mutating func quoted(_ utf8: UnsafeBufferPointer<UInt8>) {
    let n = utf8.count
    // Room for the text as it is and both quotes; every escape reserves its excess.
    reserve(n + 2)
    put(UInt8(ascii: "\""))
    guard let p = utf8.baseAddress else {
      put(UInt8(ascii: "\""))
      return
    }
    let source = UnsafeRawPointer(p)
    var i = 0
    while i + 8 <= n {
      let word = source.loadUnaligned(fromByteOffset: i, as: UInt64.self)
      if Self.hasSpecialByte(word) { break }
      #if DEBUG
        precondition(count + 8 <= capacity, "JSONWriter: a string written past the room reserved")
      #endif
      UnsafeMutableRawPointer(base + count).storeBytes(of: word, as: UInt64.self)
      count &+= 8
      i &+= 8
    }
    while i < n {
      let byte = p[i]
      if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0xE2 {
        quotedEscaping(p, from: i, count: n)
        return
      }
      #if DEBUG
        precondition(count < capacity, "JSONWriter: a string written past the room reserved")
      #endif
      base[count] = byte
      count &+= 1
      i &+= 1
    }
    put(UInt8(ascii: "\""))
  }

  /// Writes the rest of a quoted text, `p[start..<n]`, escaping what needs it, then the
  /// closing quote. Room for the rest as it is and the quote must have been reserved.
  @usableFromInline
  mutating func quotedEscaping(_ p: UnsafePointer<UInt8>, from start: Int, count n: Int) {
    var run = start  // Start of the bytes not yet copied.
    var i = start
    while true {
      let j = Self.nextSpecialByte(p, from: i, to: n)
      if j == n { break }
      guard let length = Self.escapeLength(p, at: j, count: n) else {
        i = j + 1  // A U+2xxx character other than U+2028 and U+2029: copied as it is.
        continue
      }
      put(p + run, j - run)
      // An escape is at most 6 bytes; the rest of the text and the closing quote must fit.
      reserve(6 + (n - j - length) + 1)
      writeEscape(p, at: j)
      i = j + length
      run = i
    }
    put(p + run, n - run)
    put(UInt8(ascii: "\""))
  }

  /// Writes the escape of the character at `p[j]`, which ``escapeLength(_:at:count:)`` says
  /// needs one; room must have been reserved.
  @usableFromInline
  mutating func writeEscape(_ p: UnsafePointer<UInt8>, at j: Int) {
    let byte = p[j]
    put(UInt8(ascii: "\\"))
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"): put(byte)
    case 0x08: put(UInt8(ascii: "b"))
    case 0x09: put(UInt8(ascii: "t"))
    case 0x0A: put(UInt8(ascii: "n"))
    case 0x0C: put(UInt8(ascii: "f"))
    case 0x0D: put(UInt8(ascii: "r"))
    case 0xE2:  // U+2028 or U+2029: E2 80 A8 or E2 80 A9.
      put(UInt8(ascii: "u"))
      put(UInt8(ascii: "2"))
      put(UInt8(ascii: "0"))
      put(UInt8(ascii: "2"))
      put(p[j + 2] == 0xA8 ? UInt8(ascii: "8") : UInt8(ascii: "9"))
    default:  // U+0000–U+001F without a short escape.
      put(UInt8(ascii: "u"))
      put(UInt8(ascii: "0"))
      put(UInt8(ascii: "0"))
      put(Self.hexDigit(byte >> 4))
      put(Self.hexDigit(byte & 0xF))
    }
  }

  /// The lowercase hexadecimal digit for `value` (0–15).
  @inline(__always)
  static func hexDigit(_ value: UInt8) -> UInt8 {
    value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
  }

  /// The number of bytes of the character at `p[j]` when it must be escaped (1, or 3 for
  /// U+2028 and U+2029), `nil` when it is copied as it is.
  @usableFromInline
  static func escapeLength(_ p: UnsafePointer<UInt8>, at j: Int, count n: Int) -> Int? {
    let byte = p[j]
    if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return 1 }
    if byte == 0xE2, j + 2 < n, p[j + 1] == 0x80, p[j + 2] == 0xA8 || p[j + 2] == 0xA9 { return 3 }
    return nil
  }

  /// `true` when one of the 8 bytes of `word` may start a character to escape: below 0x20,
  /// `"`, `\`, or 0xE2 (the lead byte of U+2000–U+2FFF, U+2028 and U+2029 among them).
  ///
  /// The "has a zero byte" bit trick: `(x − 0x01…01) & ~x & 0x80…80` is non-zero exactly when
  /// some byte of `x` is zero, and `(x − 0x20…20) & ~x & 0x80…80` when some byte is below 0x20;
  /// XOR with a repeated byte turns "equal to it" into "zero".
  @inlinable @inline(__always)
  static func hasSpecialByte(_ word: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let control = (word &- ones &* 0x20) & ~word
    let quote = word ^ (ones &* 0x22)
    let backslash = word ^ (ones &* 0x5C)
    let lead = word ^ (ones &* 0xE2)
    let equal = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((lead &- ones) & ~lead)
    return (control | equal) & (ones &* 0x80) != 0
  }

  /// The index of the first byte in `p[start..<end]` that may start a character to escape
  /// (see ``hasSpecialByte(_:)``), or `end` when none does.
  ///
  /// - Complexity: O(end − start), 8 bytes per step.
  @usableFromInline
  static func nextSpecialByte(_ p: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
    var i = start
    let raw = UnsafeRawPointer(p)
    while i + 8 <= end, !hasSpecialByte(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) {
      i += 8
    }
    while i < end {
      let byte = p[i]
      if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0xE2 { return i }
      i += 1
    }
    return end
  }
}
