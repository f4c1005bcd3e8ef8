import Testing

@testable import OutlineYAML

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// UTF-8 checked over bytes that arrive in pieces (Unicode §3.9, Table 3-7).
@Suite struct UTF8CheckerTests {
  /// Bytes that end where readable memory ends are checked without reading past
  /// them, at every length the eight-byte path and the byte-by-byte path meet.
  @Test func nothingPastTheEndIsRead() throws {
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    let mapped = mmap(nil, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
    let base = try #require(mapped == UnsafeMutableRawPointer(bitPattern: -1) ? nil : mapped)
    defer { munmap(base, 2 * page) }
    // The second page faults when touched.
    try #require(mprotect(base + page, page, PROT_NONE) == 0)
    let end = (base + page).assumingMemoryBound(to: UInt8.self)
    let tails: [[UInt8]] = [[], Array("é".utf8), Array("…".utf8), Array("🌴".utf8)]
    for tail in tails {
      for ascii in 0...17 {
        let bytes = [UInt8](repeating: UInt8(ascii: "a"), count: ascii) + tail
        let start = end - bytes.count
        start.update(from: bytes, count: bytes.count)
        var checker = UTF8Checker()
        #expect(checker.check(UnsafeBufferPointer(start: start, count: bytes.count), at: 0) == nil)
        #expect(checker.finish() == nil, "\(ascii) ASCII bytes then \(tail)")
      }
    }
  }
}
