import Foundation
import JSONRPC
import OutlineModel
import OutlineYAML

/// `openOutline`, `changeOutline`, `closeOutline` (PROTOCOL §3).
extension OutlineServer {
  /// Parses `bytes` into an outline (`nil` when the text has errors), with
  /// its diagnostics in the negotiated position encoding.
  /// - Throws: `-32800` when cancelled.
  func load(_ bytes: [UInt8], cancellation: CancellationToken, progress: ((Double) -> Void)? = nil)
    throws(ResponseError) -> (outline: Outline?, diagnostics: [JSONValue], errorCount: Int, firstError: String?)
  {
    var options = OutlineLoader.Options()
    options.maxNodes = self.options.maxNodes
    let result: LoadResult
    do {
      result = try OutlineLoader.load(
        bytes, options: options, shouldCancel: { cancellation.isCancelled }, progress: progress)
    } catch is CancellationError {
      throw .cancelled
    } catch {
      throw ResponseError(code: .internalError, message: "loading failed: \(error)")
    }
    let text = SourceText(bytes)
    let diagnostics = result.diagnostics.map { $0.jsonValue(text, positionEncoding) }
    let errors = result.diagnostics.filter { $0.severity == .error }
    let first = errors.first.map { "\($0.range.start.line + 1):\($0.range.start.column + 1): \($0.message)" }
    return (result.document.map { Outline(document: $0) }, diagnostics, errors.count, first)
  }

  func invalidOutline(_ diagnostics: [JSONValue], _ errorCount: Int, _ first: String?) -> ResponseError {
    ResponseError(
      code: .invalidOutline,
      message: "the outline has \(errorCount) error\(errorCount == 1 ? "" : "s")"
        + (first.map { "; first at \($0)" } ?? ""),
      data: .object(["diagnostics": .array(diagnostics)]))
  }

  /// The bytes of `uri`: `text` when given, else the file a `file:` uri names.
  func readSource(uri: String, text: String?) throws(ResponseError) -> [UInt8] {
    if let text { return Array(text.utf8) }
    guard let url = URL(string: uri), url.isFileURL else {
      throw .invalidParams("\"text\" is missing: only a file: uri may be opened without text")
    }
    return try Self.readRegularFile(url.path)
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
      case ENOENT, ENOTDIR: throw failure("no such file")
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
    let bytes = try readSource(uri: uri, text: text)
    let progress = token.map { WorkDoneProgress(token: $0, title: "Opening \(uri)", send: sendNotification) }
    progress?.begin()
    let loaded: (outline: Outline?, diagnostics: [JSONValue], errorCount: Int, firstError: String?)
    do {
      loaded = try load(bytes, cancellation: cancellation, progress: progress.map { p in { p.report($0) } })
    } catch {
      progress?.end()
      throw error
    }
    progress?.end()
    guard let outline = loaded.outline else {
      throw invalidOutline(loaded.diagnostics, loaded.errorCount, loaded.firstError)
    }
    var state = OutlineState(outline: outline, policy: policy, layout: layout ?? LayoutOverrides(), widths: widths)
    let path = ViewStateStore.realPath(ofURI: uri)
    if let previous = documents[uri] {
      // Re-opening keeps the user's expansion by id.
      state.restoreExpansion(previous.state.expansionByID, after: previous.state.version)
    } else if let path, let saved = viewStates?.load(path: path) {
      // The user's saved state wins over the file's defaults; ids that left the file are dropped.
      var byID: [String: Bool] = [:]
      for id in saved.collapsed { byID[id] = false }
      for id in saved.expanded { byID[id] = true }
      state.restoreExpansion(byID, after: 0)
      state.setFocus(saved.focus.flatMap { state.outline.position(of: $0) })
      state.scrollTop = saved.scrollTop
    }
    try cancellation.check()
    documents[uri] = OpenDocument(uri: uri, state: state, path: path)
    log.info(
      "opened \(uri): \(outline.groupCount) groups, \(outline.rowCount) rows, \(bytes.count) bytes"
        + (watch ? ", watched" : ""))
    if watch, let path {
      watcher.watch(uri, path: path)
    } else {
      watcher.unwatch(uri)
    }
    let warnings = state.warnings.map { $0.jsonValue(SourceText(bytes), positionEncoding) }
    return .object([
      "version": .number(state.version),
      "total": .number(state.total),
      "groupCount": .number(outline.groupCount),
      "rowCount": .number(outline.rowCount),
      "diagnostics": .array(loaded.diagnostics + warnings),
    ])
  }

  func changeOutline(_ p: Params, _ cancellation: CancellationToken) throws(ResponseError) -> JSONValue {
    let doc = try document(p)
    let text = try p.string("text")
    return try reload(doc, bytes: Array(text.utf8), cancellation: cancellation)
  }

  /// Replaces `doc`'s outline with a new text, keeping the user's expansion by id;
  /// with errors, the last good outline stays (`applied: false`).
  func reload(_ doc: OpenDocument, bytes: [UInt8], cancellation: CancellationToken) throws(ResponseError)
    -> JSONValue
  {
    let loaded = try load(bytes, cancellation: cancellation)
    guard let outline = loaded.outline else {
      // The last good outline stays.
      return .object([
        "applied": .bool(false), "version": .number(doc.state.version), "diagnostics": .array(loaded.diagnostics),
        "changes": .array([]),
      ])
    }
    try cancellation.check()
    let changes = doc.state.replace(with: outline)
    let warnings = doc.state.warnings.map { $0.jsonValue(SourceText(bytes), positionEncoding) }
    return .object([
      "applied": .bool(true), "version": .number(doc.state.version),
      "diagnostics": .array(loaded.diagnostics + warnings), "changes": .array(changes.map(\.jsonValue)),
    ])
  }

  /// Reloads a watched file that changed and tells the client (`outlineChanged`).
  func watchedFileChanged(_ uri: String) {
    lock.lock()
    defer { lock.unlock() }
    guard let doc = documents[uri], let path = doc.path else { return }
    guard let data = FileManager.default.contents(atPath: path) else {
      log.warn("watched file \(path) cannot be read; keeping the last good outline")
      return
    }
    guard case .object(var o)? = try? reload(doc, bytes: [UInt8](data), cancellation: CancellationToken()) else {
      return
    }
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
