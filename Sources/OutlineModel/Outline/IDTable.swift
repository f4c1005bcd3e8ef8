#if canImport(Glibc)
  import Glibc  // memcmp
#elseif canImport(Darwin)
  import Darwin
#endif

/// An open-addressing hash set of item positions keyed by the UTF-8 bytes
/// those items keep elsewhere (an ``Outline``'s text arena): the id → position
/// map without a `String` per key.
///
/// Slots hold a position or -1; the table is a power of two at least 4/3 of
/// the items it is made for, probed linearly. Lookups take the key bytes and a
/// function that gives the bytes of a stored position, so nothing is copied.
struct IDTable: Sendable {
  /// Positions, or -1 for an empty slot.
  private(set) var slots: [Int32]

  /// A table for up to `count` keys.
  init(capacityFor count: Int) {
    var c = 8
    while c < count + count / 3 + 1 { c <<= 1 }
    slots = [Int32](repeating: -1, count: c)
  }

  /// FNV-1a over the bytes, with the high bits folded in for the mask.
  static func hash(_ key: UnsafeBufferPointer<UInt8>) -> Int {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in key { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
    return Int(truncatingIfNeeded: h ^ (h >> 32))
  }

  /// The stored position whose key equals `key`, else `nil` and the empty slot where it would go.
  /// - Complexity: O(1) on average, plus the bytes compared.
  func find(_ key: UnsafeBufferPointer<UInt8>, keyOf: (Int32) -> UnsafeBufferPointer<UInt8>) -> (
    position: Int32?, slot: Int
  ) {
    let mask = slots.count - 1
    var i = Self.hash(key) & mask
    return slots.withUnsafeBufferPointer { s in
      while true {
        let v = s[i]
        if v < 0 { return (nil, i) }
        let k = keyOf(v)
        if k.count == key.count && (k.count == 0 || memcmp(k.baseAddress!, key.baseAddress!, k.count) == 0) {
          return (v, i)
        }
        i = (i + 1) & mask
      }
    }
  }

  /// Stores `position` in the empty `slot` that ``find(_:keyOf:)`` gave.
  mutating func insert(_ position: Int32, at slot: Int) {
    slots[slot] = position
  }

  /// Bytes held by the slots.
  var memoryFootprint: Int { slots.capacity * MemoryLayout<Int32>.stride }
}
