/// Checks UTF-8 (Unicode §3.9, Table 3-7) over bytes that arrive in pieces:
/// a character may be split between two pieces.
struct UTF8Checker {
  /// Continuation bytes still expected by the character being read.
  private var need = 0
  /// Bounds of the next continuation byte (narrower after E0, ED, F0, F4).
  private var low: UInt8 = 0x80
  private var high: UInt8 = 0xBF
  /// Offset of the lead byte of the character being read.
  private var lead = 0

  /// Checks `bytes`, which start at offset `base` of the input.
  /// - Returns: the offset of the first byte that is not part of
  ///   well-formed UTF-8 (for a bad or missing continuation, its lead byte), or `nil`.
  mutating func check(_ bytes: UnsafeBufferPointer<UInt8>, at base: Int) -> Int? {
    guard let p = bytes.baseAddress else { return nil }
    let n = bytes.count
    var i = 0
    while i < n {
      if need > 0 {
        let c = p[i]
        guard c >= low, c <= high else { return lead }
        need -= 1
        low = 0x80
        high = 0xBF
        i += 1
        continue
      }
      // Fast path: eight ASCII bytes at a time.
      while i + 8 <= n, UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
        i += 8
      }
      guard i < n else { break }
      let c = p[i]
      if c < 0x80 {
        i += 1
        continue
      }
      lead = base + i
      switch c {
      case 0xC2...0xDF: need = 1
      case 0xE0: (need, low) = (2, 0xA0)
      case 0xE1...0xEC, 0xEE...0xEF: need = 2
      case 0xED: (need, high) = (2, 0x9F)
      case 0xF0: (need, low) = (3, 0x90)
      case 0xF1...0xF3: need = 3
      case 0xF4: (need, high) = (3, 0x8F)
      default: return lead
      }
      i += 1
    }
    return nil
  }

  /// At the end of the input: the lead byte of an unfinished character, or `nil`.
  func finish() -> Int? { need > 0 ? lead : nil }
}
