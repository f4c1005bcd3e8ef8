import Foundation

/// A hash table from byte strings to `UInt32` values, for caches keyed by
/// text: open addressing with linear probing, keys copied into one arena.
///
/// Used for the word cache (a word's bytes → its shaped pieces) and the
/// text cache (a whole text → its words), so a text seen before is found
/// without shaping or segmenting it again.
struct ByteKeyTable {
  private struct Slot {
    var hash: UInt64 = 0
    var keyStart: UInt32 = 0
    var keyLength: UInt32 = 0
    var value: UInt32 = UInt32.max  // UInt32.max: empty
  }

  private var slots: [Slot] = Array(repeating: Slot(), count: 1024)
  private var keys: [UInt8] = []
  /// The number of keys.
  private(set) var count = 0

  /// An empty table.
  init() {}

  /// Bytes held by the slots and the key arena.
  var memoryFootprint: Int { slots.capacity * MemoryLayout<Slot>.stride + keys.capacity }

  /// The value stored for `key`, or `nil`.
  /// - Complexity: O(length of `key`) expected.
  func value(for key: UnsafeBufferPointer<UInt8>, hash: UInt64) -> UInt32? {
    let mask = slots.count - 1
    var i = Int(truncatingIfNeeded: hash) & mask
    return slots.withUnsafeBufferPointer { s in
      keys.withUnsafeBufferPointer { k in
        while s[i].value != UInt32.max {
          if s[i].hash == hash && Int(s[i].keyLength) == key.count
            && (key.isEmpty || memcmp(k.baseAddress! + Int(s[i].keyStart), key.baseAddress!, key.count) == 0)
          {
            return s[i].value
          }
          i = (i + 1) & mask
        }
        return nil
      }
    }
  }

  /// Stores `value` for `key`, which must not be in the table yet; returns
  /// where the key's copy starts, for ``withKey(at:length:_:)``.
  /// - Complexity: O(length of `key`) amortised.
  @discardableResult
  mutating func insert(_ key: UnsafeBufferPointer<UInt8>, hash: UInt64, value: UInt32) -> UInt32 {
    if (count + 1) * 2 > slots.count { grow() }
    let start = UInt32(keys.count)
    keys.append(contentsOf: key)
    place(Slot(hash: hash, keyStart: start, keyLength: UInt32(key.count), value: value))
    count += 1
    return start
  }

  /// Calls `body` with the stored copy of a key that ``insert(_:hash:value:)`` put at `start`.
  func withKey<R>(at start: UInt32, length: UInt32, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    keys.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[Int(start)..<Int(start + length)])) }
  }

  /// Empties the table and gives its memory back.
  mutating func removeAll() {
    slots = Array(repeating: Slot(), count: 1024)
    keys = []
    count = 0
  }

  private mutating func place(_ slot: Slot) {
    let mask = slots.count - 1
    var i = Int(truncatingIfNeeded: slot.hash) & mask
    while slots[i].value != UInt32.max { i = (i + 1) & mask }
    slots[i] = slot
  }

  private mutating func grow() {
    let old = slots
    slots = Array(repeating: Slot(), count: old.count * 2)
    for s in old where s.value != UInt32.max { place(s) }
  }

  /// A 64-bit hash of `bytes`: eight bytes at a time, mixed by multiplication
  /// (not cryptographic; keys are compared in full on a hit).
  /// - Complexity: O(`bytes.count`).
  static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    let n = bytes.count
    var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(n)
    guard let base = bytes.baseAddress else { return h }
    let p = UnsafeRawPointer(base)
    var i = 0
    while i + 8 <= n {
      h = (h ^ p.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
      h ^= h >> 31
      i += 8
    }
    if i < n {
      var v: UInt64 = 0
      for j in i..<n { v |= UInt64(base[j]) << (8 * UInt64(j - i)) }
      h = (h ^ v) &* 0xBF58_476D_1CE4_E5B9
      h ^= h >> 31
    }
    h ^= h >> 33
    h &*= 0xFF51_AFD7_ED55_8CCD
    h ^= h >> 33
    return h
  }
}
