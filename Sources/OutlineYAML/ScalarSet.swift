/// A set of scalar texts, held as nodes of a ``NodeTree`` and compared by
/// bytes in the arena: no String, no per-entry allocation.
///
/// Open addressing with linear probing over a power-of-two table of node
/// indices, hashed with FNV-1a; the table doubles at half load.
struct ScalarSet {
  private var slots: [Int32]
  private var count = 0

  init(capacity: Int = 16) {
    var size = 16
    while size < capacity * 2 { size <<= 1 }
    slots = Array(repeating: -1, count: size)
  }

  /// Adds the text of scalar `node`; `false` when an equal text was there.
  mutating func insert(_ node: Int, nodes: [Node], arena: UnsafeBufferPointer<UInt8>) -> Bool {
    if (count + 1) * 2 > slots.count { grow(nodes: nodes, arena: arena) }
    let text = Self.bytes(node, nodes, arena)
    let mask = slots.count - 1
    var i = Self.hash(text) & mask
    while slots[i] >= 0 {
      let other = Self.bytes(Int(slots[i]), nodes, arena)
      if other.count == text.count, memcmp(other, text) { return false }
      i = (i + 1) & mask
    }
    slots[i] = Int32(truncatingIfNeeded: node)
    count += 1
    return true
  }

  private mutating func grow(nodes: [Node], arena: UnsafeBufferPointer<UInt8>) {
    let old = slots
    slots = Array(repeating: -1, count: old.count * 2)
    let mask = slots.count - 1
    for node in old where node >= 0 {
      var i = Self.hash(Self.bytes(Int(node), nodes, arena)) & mask
      while slots[i] >= 0 { i = (i + 1) & mask }
      slots[i] = node
    }
  }

  private static func bytes(_ node: Int, _ nodes: [Node], _ arena: UnsafeBufferPointer<UInt8>)
    -> UnsafeBufferPointer<UInt8>
  {
    let n = nodes[node]
    return UnsafeBufferPointer(rebasing: arena[n.link..<n.link + Int(n.count)])
  }

  private static func hash(_ b: UnsafeBufferPointer<UInt8>) -> Int {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for c in b {
      h ^= UInt64(c)
      h = h &* 0x100_0000_01b3
    }
    return Int(truncatingIfNeeded: h ^ (h >> 29))
  }

  private func memcmp(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    for i in 0..<a.count where a[i] != b[i] { return false }
    return true
  }
}
