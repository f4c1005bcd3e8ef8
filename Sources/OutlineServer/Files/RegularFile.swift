import Foundation

/// A regular file, opened for reading: the one place where the server opens,
/// stat's and reads files (`openOutline` of a `file:` uri, the watcher of
/// `watch: true`, `render`).
///
/// A path that names a FIFO, a device or a directory is refused when it is
/// opened (without blocking, checked with `fstat` on the open descriptor), so
/// `/dev/zero` or a pipe is an error instead of an endless read or a hang.
/// The descriptor is closed when the value goes away.
struct RegularFile: ~Copyable {
  /// The path, as given.
  let path: String
  /// The open descriptor: close-on-exec, blocking reads.
  let descriptor: Int32
  /// The size when opened, in bytes.
  let size: Int

  /// What tells one version of a file from the next: its device and inode
  /// (a file replaced by a rename is another file), its size, and its
  /// modification and status-change times (ns).
  struct Stamp: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modified: Int64
    var changed: Int64

    init(_ info: stat) {
      device = UInt64(info.st_dev)
      inode = UInt64(info.st_ino)
      size = Int64(info.st_size)
      modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
      changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
    }

    /// The stamp of whatever `path` names now, or `nil` when it does not exist
    /// (or cannot be stat'ed).
    static func of(path: String) -> Stamp? {
      var info = stat()
      guard stat(path, &info) == 0 else { return nil }
      return Stamp(info)
    }
  }

  /// Why a file cannot be read: `cannot read PATH: REASON`, REASON in words
  /// (`no such file`, `it is a directory`, `not a regular file`, `permission
  /// denied`, or the system's words for `errno`).
  struct ReadError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The path, as given.
    let path: String
    /// Why, in words.
    let reason: String
    var description: String { "cannot read \(path): \(reason)" }
  }

  /// Opens the regular file at `path`.
  /// - Throws: ``ReadError`` naming `path`.
  init(opening path: String) throws(ReadError) {
    func failure(_ reason: String) -> ReadError { ReadError(path: path, reason: reason) }
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else {
      switch errno {
      case ENOENT: throw failure("no such file")
      case ENOTDIR: throw failure("a part of the path is not a directory")
      case EACCES, EPERM: throw failure("permission denied")
      default: throw failure(String(cString: strerror(errno)))
      }
    }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      let reason = String(cString: strerror(errno))
      close(fd)
      throw failure(reason)
    }
    switch info.st_mode & S_IFMT {
    case S_IFREG: break
    case S_IFDIR:
      close(fd)
      throw failure("it is a directory")
    default:
      close(fd)
      throw failure("not a regular file")
    }
    // Back to blocking reads: a regular file never blocks, and O_NONBLOCK only served the open.
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    self.path = path
    self.descriptor = fd
    self.size = Int(info.st_size)
  }

  deinit { close(descriptor) }

  /// The stamp of the open file now (`fstat`), or `nil` when it cannot be taken.
  func stamp() -> Stamp? {
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { return nil }
    return Stamp(info)
  }

  /// Every byte of the file, read from the start (`pread`), however it grew since it was opened.
  /// - Throws: ``ReadError`` naming the path.
  /// - Complexity: O(size).
  func readAll() throws(ReadError) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(size)
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    var offset = 0
    while true {
      let n = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
      if n < 0 {
        if errno == EINTR { continue }
        throw ReadError(path: path, reason: String(cString: strerror(errno)))
      }
      if n == 0 { return bytes }
      bytes.append(contentsOf: chunk[0..<n])
      offset += n
    }
  }

  /// Every byte of the regular file at `path`.
  /// - Throws: ``ReadError`` naming `path`.
  static func read(_ path: String) throws(ReadError) -> [UInt8] {
    try RegularFile(opening: path).readAll()
  }
}
