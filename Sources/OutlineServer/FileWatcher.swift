import Foundation

/// Notices changes to watched files by polling their status (`stat`) a few
/// times a second: the same way whether an editor saves by atomic rename, by
/// truncating and writing, or by deleting and creating the file again.
///
/// The callback runs on the watcher's own thread.
final class FileWatcher: @unchecked Sendable {
  // @unchecked Sendable: `watched` and `thread` are guarded by `lock`.

  /// What tells two versions of a file apart.
  struct Signature: Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modified: timespec

    static func == (a: Signature, b: Signature) -> Bool {
      a.device == b.device && a.inode == b.inode && a.size == b.size && a.modified.tv_sec == b.modified.tv_sec
        && a.modified.tv_nsec == b.modified.tv_nsec
    }

    /// The signature of `path`, or `nil` when it does not exist.
    static func of(_ path: String) -> Signature? {
      var s = stat()
      guard stat(path, &s) == 0 else { return nil }
      return Signature(device: UInt64(s.st_dev), inode: UInt64(s.st_ino), size: Int64(s.st_size), modified: s.st_mtim)
    }
  }

  private let lock = NSLock()
  private var watched: [String: (path: String, signature: Signature?)] = [:]
  private var running = false
  private let interval: TimeInterval
  private let changed: @Sendable (String) -> Void
  private let gone: @Sendable (String) -> Void

  /// - Parameters:
  ///   - interval: seconds between two polls.
  ///   - changed: called with the key of a file whose signature changed (and is not missing).
  ///   - gone: called with the key of a file found missing at a poll where it was there
  ///     before; the file is still watched, and `changed` is called when it comes back.
  init(
    interval: TimeInterval = 0.2, changed: @escaping @Sendable (String) -> Void,
    gone: @escaping @Sendable (String) -> Void = { _ in }
  ) {
    self.interval = interval
    self.changed = changed
    self.gone = gone
  }

  /// Starts watching `path` under `key`, from its current state.
  func watch(_ key: String, path: String) {
    lock.lock()
    watched[key] = (path, Signature.of(path))
    let start = !running
    running = true
    lock.unlock()
    if start {
      Thread.detachNewThread { [weak self] in self?.poll() }
    }
  }

  /// Stops watching `key`.
  func unwatch(_ key: String) {
    lock.lock()
    watched[key] = nil
    lock.unlock()
  }

  private func poll() {
    while true {
      Thread.sleep(forTimeInterval: interval)
      lock.lock()
      var fired: [String] = []
      var missing: [String] = []
      for (key, entry) in watched {
        let now = Signature.of(entry.path)
        if now != entry.signature {
          watched[key] = (entry.path, now)
          // A file that is gone is waited for: it may be written again.
          if now != nil { fired.append(key) } else { missing.append(key) }
        }
      }
      lock.unlock()
      for key in missing { gone(key) }
      for key in fired { changed(key) }
    }
  }
}
