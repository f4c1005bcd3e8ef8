import Foundation
import JSONRPC

/// The view state of one file as saved between sessions (PROTOCOL §6).
struct SavedViewState: Codable, Equatable {
  /// The file's real path (symbolic links resolved), the key of the record.
  var path: String
  /// Groups the user had open, and those the user had closed: groups in
  /// neither list (new in the file) take the file's `expanded`.
  var expanded: [String]
  var collapsed: [String]
  var focus: String?
  var scrollTop: Double?
}

/// Saves and restores view state under `--state-dir` (default
/// `$XDG_STATE_HOME/outline-server`, else `~/.local/state/outline-server`).
///
/// One JSON file per outline file, named after the file and a hash of its
/// real path, written atomically (a temporary file renamed over it). A
/// directory that cannot be written or a record that cannot be read is
/// reported on stderr and otherwise ignored: never fatal.
struct ViewStateStore: Sendable {
  let directory: URL
  let log: Logger

  init(directory: String, log: Logger) {
    self.directory = URL(fileURLWithPath: directory, isDirectory: true)
    self.log = log
  }

  /// `$XDG_STATE_HOME/outline-server`, or `~/.local/state/outline-server` when it is unset or empty.
  static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
    if let xdg = environment["XDG_STATE_HOME"], !xdg.isEmpty { return xdg + "/outline-server" }
    let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    return home + "/.local/state/outline-server"
  }

  /// The real path of a `file:` uri, or `nil` for other uris.
  static func realPath(ofURI uri: String) -> String? {
    guard let url = URL(string: uri), url.isFileURL else { return nil }
    return url.resolvingSymlinksInPath().standardizedFileURL.path
  }

  /// Where the record of `path` lives.
  func recordURL(for path: String) -> URL {
    // FNV-1a 64 of the path: stable across runs, unlike Hasher.
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in path.utf8 {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01B3
    }
    let name = URL(fileURLWithPath: path).lastPathComponent.filter { $0.isLetter || $0.isNumber || "._-".contains($0) }
    return directory.appendingPathComponent("\(name)-\(String(hash, radix: 16)).json")
  }

  /// The saved state of `path`, or `nil` when there is none or it is unreadable (reported on stderr).
  func load(path: String) -> SavedViewState? {
    let url = recordURL(for: path)
    guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
    do {
      let saved = try JSONDecoder().decode(SavedViewState.self, from: data)
      guard saved.path == path else { return nil }
      return saved
    } catch {
      log.warn("ignoring the unreadable view state \(url.path): \(error)")
      return nil
    }
  }

  /// Saves `state` atomically; failures are reported on stderr.
  func save(_ state: SavedViewState) {
    let url = recordURL(for: state.path)
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys]
      let data = try encoder.encode(state)
      let temp = directory.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
      try data.write(to: temp)
      guard rename(temp.path, url.path) == 0 else {
        let reason = String(cString: strerror(errno))
        try? FileManager.default.removeItem(at: temp)
        throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: reason])
      }
    } catch {
      log.warn("cannot save the view state of \(state.path) in \(directory.path): \(Self.describe(error))")
    }
  }

  /// A one-line reason: the system's words for the underlying `errno` when there is one.
  static func describe(_ error: any Error) -> String {
    let ns = error as NSError
    if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
      return String(cString: strerror(Int32(underlying.code)))
    }
    if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
    if let reason = ns.userInfo[NSLocalizedDescriptionKey] as? String { return reason }
    return "\(error)"
  }
}
