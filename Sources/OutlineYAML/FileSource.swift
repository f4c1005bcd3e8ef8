#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An open regular file read in chunks for libyaml, checked as UTF-8 on the way.
///
/// The descriptor stays owned by the caller. Not `Sendable`: one reader, one thread.
final class FileSource {
  let descriptor: Int32
  /// The size given by the caller, for progress only.
  let size: Int
  /// Most bytes asked of the file per read.
  let chunkSize: Int
  /// The offset of the next byte to read (the file is read from its start,
  /// after a byte order mark, with `pread`).
  private(set) var offset = 0
  private var checker = UTF8Checker()
  private var atEnd = false
  /// The offset of the first byte that is not UTF-8, once found.
  private(set) var invalidUTF8: Int?
  /// The `errno` of a failed read.
  private(set) var readError: Int32?

  /// Bytes of a leading UTF-8 byte order mark (3 or 0): they are skipped,
  /// so reading starts after them and libyaml never sees the mark.
  let byteOrderMarkLength: Int

  init(descriptor: Int32, size: Int, chunkSize: Int) {
    self.descriptor = descriptor
    self.size = size
    self.chunkSize = max(chunkSize, 1)
    var head: [UInt8] = [0, 0, 0]
    var count = head.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 3, 0) }
    while count < 0, errno == EINTR {
      count = head.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 3, 0) }
    }
    // A failed read here fails again, and is reported, at the first chunk.
    byteOrderMarkLength = count == 3 && head == [0xEF, 0xBB, 0xBF] ? 3 : 0
    offset = byteOrderMarkLength
  }

  /// Reads the next chunk into `buffer`: the byte count, 0 at the end, or
  /// `nil` when reading failed or the bytes are not UTF-8.
  func read(into buffer: UnsafeMutablePointer<UInt8>, capacity: Int) -> Int? {
    guard invalidUTF8 == nil, readError == nil else { return nil }
    if atEnd { return 0 }
    var count = pread(descriptor, buffer, min(capacity, chunkSize), off_t(offset))
    while count < 0, errno == EINTR {
      count = pread(descriptor, buffer, min(capacity, chunkSize), off_t(offset))
    }
    if count < 0 {
      readError = errno
      return nil
    }
    if count == 0 {
      atEnd = true
      if let bad = checker.finish() {
        invalidUTF8 = bad
        return nil
      }
      return 0
    }
    if let bad = checker.check(UnsafeBufferPointer(start: buffer, count: count), at: offset) {
      invalidUTF8 = bad
      return nil
    }
    offset += count
    return count
  }

  /// Checks the bytes libyaml did not ask for (it stopped early), so that
  /// ``invalidUTF8`` covers the whole file.
  func checkRest() {
    guard invalidUTF8 == nil, readError == nil, !atEnd else { return }
    let chunk = UnsafeMutablePointer<UInt8>.allocate(capacity: 1 << 16)
    defer { chunk.deallocate() }
    while let n = read(into: chunk, capacity: 1 << 16), n > 0 {}
  }

  /// The whole file, read again from its start (for error messages only).
  func readAll() -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(size)
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    var at = 0
    while true {
      let n = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(at)) }
      if n < 0, errno == EINTR { continue }
      guard n > 0 else { break }
      bytes.append(contentsOf: chunk[0..<n])
      at += n
    }
    return bytes
  }

}
