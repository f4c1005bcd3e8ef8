import Foundation
import JSONRPC
import OutlineModel
import OutlineYAML

/// `openOutline`, `changeOutline`, `closeOutline` (PROTOCOL §3).
extension OutlineServer {
  /// Where an outline's text is read from.
  enum OutlineSource {
    /// Text sent by the client (`text`), as UTF-8.
    case text([UInt8])
    /// A regular file, read in chunks: never whole in memory unless a
    /// diagnostic has to be placed.
    case file(path: String)
  }

  /// What ``load(_:cancellation:progress:)`` found.
  struct Loaded {
    /// The outline, or `nil` when the text has errors.
    var outline: Outline?
    /// The loader's diagnostics, errors and warnings.
    var diagnostics: [Diagnostic]
    /// The text the diagnostics point into, read only when one has to be placed.
    var text: () -> SourceText
  }

  /// Parses `source` straight into an outline (no intermediate document).
  /// - Throws: `-32800` when cancelled; `-32013` when a file cannot be read.
  func load(_ source: OutlineSource, cancellation: CancellationToken, progress: ((Double) -> Void)? = nil)
    throws(ResponseError) -> Loaded
  {
    var options = OutlineLoader.Options()
    options.maxNodes = self.options.maxNodes
    let shouldCancel = { cancellation.isCancelled }
    switch source {
    case .text(let bytes):
      let loaded = try Self.loading("the text") {
        try OutlineLoader.loadOutline(.bytes(bytes), options: options, shouldCancel: shouldCancel, progress: progress)
      }
      return Loaded(outline: loaded.outline, diagnostics: loaded.diagnostics, text: { SourceText(bytes) })
    case .file(let path):
      let loaded = try loadFile(path, options: options, shouldCancel: shouldCancel, progress: progress)
      // Read again only to place a diagnostic (the file was streamed).
      return Loaded(
        outline: loaded.outline, diagnostics: loaded.diagnostics,
        text: { SourceText((try? Self.readRegularFile(path)) ?? []) })
    }
  }

  /// Streams the regular file at `path` into an outline. A file rewritten in
  /// place while it is read (an editor saving over it) would give an outline
  /// that never existed: its size and times are compared before and after,
  /// and it is read again if they moved, up to three times. Progress only
  /// rises, also over a second read.
  /// - Throws: `-32800` when cancelled; `-32013` when it cannot be read or keeps changing.
  private func loadFile(
    _ path: String, options: OutlineLoader.Options, shouldCancel: @escaping () -> Bool,
    progress: ((Double) -> Void)?
  ) throws(ResponseError) -> (outline: Outline?, diagnostics: [Diagnostic]) {
    var reported = 0.0
    let rising = progress.map { report in
      { (fraction: Double) in
        if fraction > reported {
          reported = fraction
          report(fraction)
        }
      }
    }
    for attempt in 1...3 {
      // Give a writer caught mid-save a moment before reading again.
      if attempt > 1 {
        log.info("\(path) changed while it was read; reading it again")
        usleep(100_000)
      }
      let file = try Self.openRegularFile(path)
      defer { close(file.descriptor) }
      let before = Self.fileStamp(file.descriptor)
      let result = try Self.loading(path) {
        try OutlineLoader.loadOutline(
          .file(descriptor: file.descriptor, size: file.size), options: options, shouldCancel: shouldCancel,
          progress: rising)
      }
      if before != nil, Self.fileStamp(file.descriptor) == before { return result }
    }
    throw ResponseError(code: .fileError, message: "cannot read \(path): it changed while it was read, 3 times")
  }

  /// Runs a load, turning its errors into the protocol's: `-32800` when
  /// cancelled, `-32013` naming `name` when a read failed.
  private static func loading<T>(_ name: String, _ body: () throws -> T) throws(ResponseError) -> T {
    do {
      return try body()
    } catch is CancellationError {
      throw .cancelled
    } catch let error as OutlineLoader.ReadError {
      throw ResponseError(code: .fileError, message: "cannot read \(name): \(String(cString: strerror(error.code)))")
    } catch {
      throw ResponseError(code: .internalError, message: "loading failed: \(error)")
    }
  }

  /// Most diagnostics one answer lists; see ``listed(_:)``.
  static let maxDiagnostics = 1000

  /// `diagnostics` in the negotiated position encoding, at most
  /// ``maxDiagnostics`` of them (see ``listed(_:)``); `text` is read only if there is one.
  func jsonDiagnostics(_ diagnostics: [Diagnostic], _ text: () -> SourceText) -> [JSONValue] {
    guard !diagnostics.isEmpty else { return [] }
    let source = text()
    return Self.listed(diagnostics).map { $0.jsonValue(source, positionEncoding) }
  }

  /// The diagnostics an answer lists: all of them up to ``maxDiagnostics``;
  /// past that, errors then warnings, each by position, and last a
  /// `too-many-diagnostics` warning that counts the rest. A file with an
  /// unknown key on each of 300,000 rows would otherwise answer 57 MB.
  static func listed(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
    guard diagnostics.count > maxDiagnostics else { return diagnostics }
    let keep = maxDiagnostics - 1
    var chosen: [Int] = []
    for i in diagnostics.indices where diagnostics[i].severity == .error && chosen.count < keep { chosen.append(i) }
    for i in diagnostics.indices where diagnostics[i].severity != .error && chosen.count < keep { chosen.append(i) }
    let isChosen = Set(chosen)
    var kept = chosen.map { diagnostics[$0] }
    kept.sort { ($0.severity.rawValue, $0.range.start) < ($1.severity.rawValue, $1.range.start) }
    let omitted = diagnostics.count - kept.count
    let firstOmitted = diagnostics.indices.first { !isChosen.contains($0) }.map { diagnostics[$0] }
    kept.append(
      Diagnostic(
        range: firstOmitted?.range ?? .zero, severity: .warning, code: "too-many-diagnostics",
        message: "\(omitted) more diagnostics are not listed (only the first \(keep) are)"))
    return kept
  }

  /// The `-32011` error of a text with errors: their count, the first, and every diagnostic.
  func invalidOutline(_ loaded: Loaded) -> ResponseError {
    let errors = loaded.diagnostics.filter { $0.severity == .error }
    let source = loaded.text()
    let first = errors.first.map { d in
      let at = source.lspPosition(d.range.start, in: .utf32)
      return "; first at \(at.line + 1):\(at.character + 1): \(d.message)"
    }
    return ResponseError(
      code: .invalidOutline,
      message: "the outline has \(errors.count) error\(errors.count == 1 ? "" : "s")" + (first ?? ""),
      data: .object(["diagnostics": .array(jsonDiagnostics(loaded.diagnostics, { source }))]))
  }

  /// Where `uri`'s text comes from: `text` when given, else the file a `file:` uri names.
  func source(uri: String, text: String?) throws(ResponseError) -> OutlineSource {
    if let text { return .text(Array(text.utf8)) }
    guard let url = URL(string: uri), url.isFileURL else {
      throw .invalidParams("\"text\" is missing: only a file: uri may be opened without text")
    }
    if let host = url.host, !host.isEmpty, host.lowercased() != "localhost" {
      throw ResponseError(code: .fileError, message: "cannot read \(uri): the file is on host \"\(host)\", not here")
    }
    guard !url.path.isEmpty else {
      throw .invalidParams("\"uri\" names no file: \(uri)")
    }
    // `url.path` drops a trailing slash; keep it, so a file named as a directory is ENOTDIR.
    return .file(path: url.path + (url.hasDirectoryPath && url.path != "/" ? "/" : ""))
  }

  /// What tells one version of an open file from the next: its size and its
  /// modification and status-change times (ns); `nil` when `fstat` fails.
  static func fileStamp(_ descriptor: Int32) -> [Int]? {
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { return nil }
    return [
      Int(info.st_size), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec), Int(info.st_ctim.tv_sec),
      Int(info.st_ctim.tv_nsec),
    ]
  }

  /// The bytes of the regular file at `path` (see ``openRegularFile(_:)``).
  /// - Throws: `-32013 FileError` naming `path`.
  static func readRegularFile(_ path: String) throws(ResponseError) -> [UInt8] {
    let file = try openRegularFile(path)
    let handle = FileHandle(fileDescriptor: file.descriptor, closeOnDealloc: true)
    do {
      return [UInt8](try handle.readToEnd() ?? Data())
    } catch {
      throw ResponseError(
        code: .fileError, message: "cannot read \(path): unreadable (\(error.localizedDescription))")
    }
  }

  /// Opens the regular file at `path` for reading, for
  /// `LoaderInput.file(descriptor:size:)`.
  ///
  /// The file is opened without blocking and checked with `fstat` on the
  /// open descriptor, so a FIFO, a device (`/dev/zero`) or a directory is a
  /// `-32013` instead of a hang or an endless read.
  /// - Returns: the open descriptor (close-on-exec, blocking again; the
  ///   caller closes it) and the file's size in bytes.
  /// - Throws: `-32013 FileError` naming `path`.
  static func openRegularFile(_ path: String) throws(ResponseError) -> (descriptor: Int32, size: Int) {
    func failure(_ reason: String) -> ResponseError {
      ResponseError(code: .fileError, message: "cannot read \(path): \(reason)")
    }
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
    return (fd, Int(info.st_size))
  }

  func openOutline(_ p: Params, _ cancellation: CancellationToken) throws(ResponseError) -> JSONValue {
    let uri = try p.string("uri")
    let text = try p.optionalString("text")
    let policy = try p.optionalEnum("policy", ExpansionPolicy.self)
    let layout = try p.optionalObject("layout").map { l throws(ResponseError) in try Self.layoutOverrides(l) }
    let watch = try p.optionalBool("watch") ?? false
    if watch {
      guard URL(string: uri)?.isFileURL == true else { throw .invalidParams("\"watch\" needs a file: uri") }
    }
    let token = p.value("workDoneToken")
    if let token, token.stringValue == nil && token.intValue == nil {
      throw p.fail("workDoneToken", "must be a string or an integer")
    }
    let source = try source(uri: uri, text: text)
    let progress = token.map { WorkDoneProgress(token: $0, title: "Opening \(uri)", send: sendNotification) }
    progress?.begin()
    let loaded: Loaded
    do {
      loaded = try load(source, cancellation: cancellation, progress: progress.map { p in { p.report($0) } })
    } catch {
      progress?.end()
      throw error
    }
    progress?.end()
    guard let outline = loaded.outline else {
      throw invalidOutline(loaded)
    }
    let path = ViewStateStore.realPath(ofURI: uri)
    var state: OutlineState
    if let previous = documents[uri], policy == nil || policy == previous.state.policy {
      // Re-opening under the same policy is a new text for the same outline,
      // as changeOutline: expansion, filter, focus, scroll and the host's
      // layout stay; a `layout` is applied as setLayout; the version moves
      // only if something shown changed.
      state = previous.state
      _ = state.replace(with: outline)
      if let layout { _ = state.setLayout(layout) }
    } else {
      state = OutlineState(outline: outline, policy: policy, layout: layout ?? LayoutOverrides(), widths: widths)
      if let previous = documents[uri] {
        // Another policy: the file's defaults under it, then the user's view.
        let old = previous.state
        state.restoreView(
          expansion: old.expansionByID, focus: old.focus.map { old.outline.id(at: $0) }, scrollTop: old.scrollTop,
          after: old.version)
        if let query = old.filterQuery { _ = state.filter(query) }
      } else if let path, let saved = viewStates?.load(path: path) {
        // The user's saved view wins over the file's defaults; ids that left the file are dropped.
        var byID: [String: Bool] = [:]
        for id in saved.collapsed { byID[id] = false }
        for id in saved.expanded { byID[id] = true }
        state.restoreView(expansion: byID, focus: saved.focus, scrollTop: saved.scrollTop, after: 0)
      }
    }
    try cancellation.check()
    documents[uri] = OpenDocument(uri: uri, state: state, path: path)
    log.info(
      "opened \(uri): \(outline.groupCount) groups, \(outline.rowCount) rows, \(outline.textBytes) bytes of text"
        + (watch ? ", watched" : ""))
    if watch, let path {
      watcher.watch(uri, path: path)
    } else {
      watcher.unwatch(uri)
    }
    return .object([
      "version": .number(state.version),
      "total": .number(state.total),
      "groupCount": .number(outline.groupCount),
      "rowCount": .number(outline.rowCount),
      "diagnostics": .array(jsonDiagnostics(loaded.diagnostics + state.warnings, loaded.text)),
    ])
  }

  func changeOutline(_ p: Params, _ cancellation: CancellationToken) throws(ResponseError) -> JSONValue {
    let doc = try document(p)
    let text = try p.string("text")
    return try reload(doc, from: .text(Array(text.utf8)), cancellation: cancellation)
  }

  /// Replaces `doc`'s outline with a new text, keeping the user's expansion by id;
  /// with errors, the last good outline stays (`applied: false`).
  func reload(_ doc: OpenDocument, from source: OutlineSource, cancellation: CancellationToken) throws(ResponseError)
    -> JSONValue
  {
    let loaded = try load(source, cancellation: cancellation)
    guard let outline = loaded.outline else {
      // The last good outline stays.
      return .object([
        "applied": .bool(false), "version": .number(doc.state.version),
        "diagnostics": .array(jsonDiagnostics(loaded.diagnostics, loaded.text)),
        "changes": .array([]),
      ])
    }
    try cancellation.check()
    let changes = doc.state.replace(with: outline)
    return .object([
      "applied": .bool(true), "version": .number(doc.state.version),
      "diagnostics": .array(jsonDiagnostics(loaded.diagnostics + doc.state.warnings, loaded.text)),
      "changes": .array(changes.map(\.jsonValue)),
    ])
  }

  /// Reloads a watched file that changed and tells the client (`outlineChanged`).
  func watchedFileChanged(_ uri: String) {
    lock.lock()
    defer { lock.unlock() }
    guard let doc = documents[uri], let path = doc.path else { return }
    let changed: JSONValue
    do {
      changed = try reload(doc, from: .file(path: path), cancellation: CancellationToken())
    } catch {
      log.warn("watched file \(path) cannot be read (\(error.message)); keeping the last good outline")
      return
    }
    guard case .object(var o) = changed else { return }
    log.info("\(path) changed on disk: version \(doc.state.version)")
    o["uri"] = .string(uri)
    o["applied"] = nil
    sendNotification?("outlineChanged", .object(o))
  }

  func closeOutline(_ p: Params) throws(ResponseError) -> JSONValue {
    let doc = try document(p)
    if let saved = doc.savedViewState { viewStates?.save(saved) }
    watcher.unwatch(doc.uri)
    documents[doc.uri] = nil
    return .null
  }
}
