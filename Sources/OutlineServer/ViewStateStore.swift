import Foundation
import JSONRPC

/// The view state of one file as saved between sessions (PROTOCOL §6): the
/// record `{collapsed, expanded, focus?, path, scrollTop?}`.
struct SavedViewState: Equatable, JSONWritable {
  /// The file's real path (symbolic links resolved), the key of the record.
  var path: String
  /// Groups the user had open, and those the user had closed: groups in
  /// neither list (new in the file) take the file's `expanded`.
  var expanded: [String]
  var collapsed: [String]
  var focus: String?
  var scrollTop: Double?

  /// The record, members in name order.
  func write(to json: inout JSONWriter) {
    json.object { json in
      json.member("collapsed", collapsed)
      json.member("expanded", expanded)
      json.member("focus", ifPresent: focus)
      json.member("path", path)
      json.member("scrollTop", ifPresent: scrollTop)
    }
  }

  /// Reads a record, straight from the parsed text (a big outline's record
  /// lists tens of thousands of ids: no tree of values is made for them).
  /// - Throws: a reason in words when `value` is not one.
  init(_ value: JSONElement) throws(RecordError) {
    func ids(_ key: String) throws(RecordError) -> [String] {
      guard let list = value[key]?.elements else { throw RecordError("\"\(key)\" is not a list") }
      var result: [String] = []
      result.reserveCapacity(list.underestimatedCount)
      for element in list {
        guard let id = element.stringValue else { throw RecordError("\"\(key)\" holds something that is not an id") }
        result.append(id)
      }
      return result
    }
    guard let path = value["path"]?.stringValue else { throw RecordError("\"path\" is missing") }
    self.path = path
    expanded = try ids("expanded")
    collapsed = try ids("collapsed")
    focus = value["focus"]?.stringValue
    scrollTop = value["scrollTop"]?.doubleValue
  }

  init(path: String, expanded: [String], collapsed: [String], focus: String?, scrollTop: Double?) {
    self.path = path
    self.expanded = expanded
    self.collapsed = collapsed
    self.focus = focus
    self.scrollTop = scrollTop
  }

  /// Why a record cannot be read.
  struct RecordError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }
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
    guard let bytes = try? RegularFile.read(url.path) else { return nil }
    do {
      // A parser of its own, freed at once: a big record would keep a shared one's buffers
      // (several bytes a byte of text) while the outline is loaded.
      let saved = try SavedViewState(JSONParser().parse(bytes).root)
      guard saved.path == path else { return nil }
      return saved
    } catch {
      log.warn("ignoring the unreadable view state \(url.path): \(error)")
      return nil
    }
  }

  /// Saves `state` atomically (a temporary file renamed over the record);
  /// a failure is reported on stderr with the path and the system's reason,
  /// e.g. `cannot save the view state of /a/b.yaml: cannot create the
  /// directory /x/state: Not a directory`.
  func save(_ state: SavedViewState) {
    let url = recordURL(for: state.path)
    var json = JSONWriter()
    state.write(to: &json)
    let data = json.bytes
    do throws(StateFileError) {
      try Self.makeDirectories(directory.path)
      let temp = directory.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp").path
      try Self.writeFile(data, to: temp)
      guard rename(temp, url.path) == 0 else {
        let error = StateFileError(doing: "cannot rename \(temp) to \(url.path)")
        unlink(temp)
        throw error
      }
    } catch {
      log.warn("cannot save the view state of \(state.path): \(error.description)")
    }
  }

  /// A failed system call on the state directory: what was tried, on which path, and `errno`'s words.
  struct StateFileError: Error, CustomStringConvertible {
    let description: String
    /// `doing`, then the reason `errno` gives now.
    init(doing: String) { description = "\(doing): \(String(cString: strerror(errno)))" }
  }

  /// `mkdir -p`: creates `path` and its missing parents (mode 0700: view state is private).
  static func makeDirectories(_ path: String) throws(StateFileError) {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue { return }
    let parent = (path as NSString).deletingLastPathComponent
    if !parent.isEmpty, parent != path { try makeDirectories(parent) }
    guard mkdir(path, 0o700) == 0 || errno == EEXIST else {
      throw StateFileError(doing: "cannot create the directory \(path)")
    }
  }

  /// Writes `bytes` to a new file at `path` (replacing one that is there).
  static func writeFile(_ bytes: [UInt8], to path: String) throws(StateFileError) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw StateFileError(doing: "cannot create \(path)") }
    defer { close(fd) }
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else {
        let error = StateFileError(doing: "cannot write \(path)")
        unlink(path)
        throw error
      }
      offset += n
    }
  }
}
