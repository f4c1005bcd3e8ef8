extension JSONWriter {
  /// Writes an integer in decimal: `-12`, `0`, `9223372036854775807`.
  ///
  /// - Complexity: O(1) (at most 20 digits).
  @inlinable
  public mutating func value(_ int: Int) {
    value(Int64(int))
  }

  /// Writes an integer in decimal, `Int64.min` included.
  ///
  /// - Complexity: O(1) (at most 20 digits).
  @inlinable
  public mutating func value(_ int: Int64) {
    scalar(reserving: 20)
    if int < 0 { put(UInt8(ascii: "-")) }
    digits(int.magnitude)
    needsComma = true
  }

  /// Writes an unsigned integer in decimal, up to `UInt64.max` (20 digits). A reader that
  /// keeps numbers as doubles reads integers beyond 2^53 rounded.
  ///
  /// - Complexity: O(1).
  @inlinable
  public mutating func value(_ int: UInt64) {
    scalar(reserving: 20)
    digits(int)
    needsComma = true
  }

  /// Writes a `Double` (RFC 8259 §6):
  ///
  /// - an integral value of magnitude up to 2^53 in decimal, without a fraction or an
  ///   exponent: `0`, `-3`, `9007199254740992`; −0 is written `-0`;
  /// - NaN and ±infinity, which JSON cannot represent, as `null`;
  /// - any other value in the fewest significant digits that read back as the same `Double`
  ///   (Swift's `description`, which is the shortest round-trip form), with the exponent
  ///   written without `+` or leading zeros: `0.1`, `2.5`, `1e300`, `5e-324`, `1e-5`,
  ///   `9.007199254740994e15`.
  ///
  /// - Complexity: O(1).
  @inlinable
  public mutating func value(_ double: Double) {
    // Not `rounded(.towardZero)`, which is a library call: a conversion is one instruction.
    if double.magnitude <= 9_007_199_254_740_992, Double(Int64(double)) == double {
      if double == 0, double.sign == .minus {
        scalar(reserving: 2)
        put(UInt8(ascii: "-"))
        put(UInt8(ascii: "0"))
        needsComma = true
      } else {
        value(Int64(double))
      }
    } else if double.isFinite {
      shortest(double)
    } else {
      null()
    }
  }

  /// Writes the decimal digits of `value`; room must have been reserved (20 bytes).
  @inlinable @inline(__always)
  mutating func digits(_ value: UInt64) {
    let n = Self.decimalDigitCount(value)
    #if DEBUG
      precondition(count + n <= capacity, "JSONWriter: digits written past the room reserved")
    #endif
    var rest = value
    var i = count + n
    repeat {
      i -= 1
      base[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
      rest /= 10
    } while rest != 0
    count &+= n
  }

  /// The number of decimal digits of `value` (1 for 0).
  @inlinable @inline(__always)
  static func decimalDigitCount(_ value: UInt64) -> Int {
    var n = 1
    var rest = value
    while rest >= 10_000 {
      rest /= 10_000
      n += 4
    }
    if rest >= 100 { return n + (rest >= 1_000 ? 3 : 2) }
    return n + (rest >= 10 ? 1 : 0)
  }

  /// Writes a finite, non-integral (or beyond 2^53) `Double` in its shortest round-trip
  /// form: Swift's `description`, with the exponent's `+` and leading zeros dropped, and a
  /// `.0` before the exponent or at the end dropped.
  @usableFromInline
  mutating func shortest(_ double: Double) {
    var text = double.description
    scalar(reserving: text.utf8.count)
    text.withUTF8 { utf8 in
      let end = utf8.count
      let exponent = utf8.firstIndex(of: UInt8(ascii: "e")) ?? end
      var mantissaEnd = exponent
      if mantissaEnd >= 2, utf8[mantissaEnd - 2] == UInt8(ascii: "."), utf8[mantissaEnd - 1] == UInt8(ascii: "0") {
        mantissaEnd -= 2
      }
      put(utf8.baseAddress!, mantissaEnd)
      guard exponent < end else { return }
      put(UInt8(ascii: "e"))
      var i = exponent + 1
      if utf8[i] == UInt8(ascii: "+") {
        i += 1
      } else if utf8[i] == UInt8(ascii: "-") {
        put(UInt8(ascii: "-"))
        i += 1
      }
      while i < end - 1, utf8[i] == UInt8(ascii: "0") { i += 1 }
      while i < end {
        put(utf8[i])
        i += 1
      }
    }
    needsComma = true
  }
}
