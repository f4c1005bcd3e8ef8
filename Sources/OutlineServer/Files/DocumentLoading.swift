import Foundation
import JSONRPC
import OutlineModel
import OutlineYAML

/// Loading an outline's text (PROTOCOL §3): from the text a client sent or
/// from a `file:` uri's file, into an ``OutlineModel/Outline`` and its
/// diagnostics.
extension OutlineServer {
  /// Where an outline's text is read from.
  enum OutlineSource {
    /// Text sent by the client (`text`), as UTF-8.
    case text([UInt8])
    /// Text the server keeps, with its line index (the host's edits applied).
    case indexed(SourceText)
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
    /// A file's stamp when it was read (`nil` for a text).
    var stamp: RegularFile.Stamp? = nil

    /// The text as the server keeps it from now on (PROTOCOL §9): the
    /// host's, or the file as read.
    func kept(from source: OutlineSource) -> DocumentText {
      switch source {
      case .text(let bytes): return .bytes(bytes)
      case .indexed(let text): return .indexed(text)
      case .file(let path): return .file(path: path, stamp: stamp)
      }
    }
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
    case .indexed(let text):
      let loaded = try Self.loading("the text") {
        try OutlineLoader.loadOutline(
          .bytes(text.bytes), options: options, shouldCancel: shouldCancel, progress: progress)
      }
      return Loaded(outline: loaded.outline, diagnostics: loaded.diagnostics, text: { text })
    case .file(let path):
      let loaded = try loadFile(path, options: options, shouldCancel: shouldCancel, progress: progress)
      // Read again only to place a diagnostic (the file was streamed).
      return Loaded(
        outline: loaded.outline, diagnostics: loaded.diagnostics,
        text: { SourceText((try? RegularFile.read(path)) ?? []) }, stamp: loaded.stamp)
    }
  }

  /// Streams the regular file at `path` into an outline. A file rewritten in
  /// place while it is read (an editor saving over it) would give an outline
  /// that never existed: its ``RegularFile/Stamp`` is compared before and
  /// after, and it is read again if it moved, up to three times. Progress
  /// only rises, also over a second read.
  /// - Returns: the outline or the diagnostics, and the stamp of the file read.
  /// - Throws: `-32800` when cancelled; `-32013` when it cannot be read or keeps changing.
  private func loadFile(
    _ path: String, options: OutlineLoader.Options, shouldCancel: @escaping () -> Bool,
    progress: ((Double) -> Void)?
  ) throws(ResponseError) -> (outline: Outline?, diagnostics: [Diagnostic], stamp: RegularFile.Stamp) {
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
      let file = try Self.opening(path)
      let before = file.stamp()
      let result = try Self.loading(path) {
        try OutlineLoader.loadOutline(
          .file(descriptor: file.descriptor, size: file.size), options: options, shouldCancel: shouldCancel,
          progress: rising)
      }
      if let before, file.stamp() == before { return (result.outline, result.diagnostics, before) }
    }
    throw ResponseError(code: .fileError, message: "cannot read \(path): it changed while it was read, 3 times")
  }

  /// Opens the regular file at `path`.
  /// - Throws: `-32013 FileError` naming `path`.
  static func opening(_ path: String) throws(ResponseError) -> RegularFile {
    do {
      return try RegularFile(opening: path)
    } catch {
      throw ResponseError(code: .fileError, message: error.description)
    }
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
  func lspDiagnostics(_ diagnostics: [Diagnostic], _ text: () -> SourceText) -> [LSPDiagnostic] {
    guard !diagnostics.isEmpty else { return [] }
    let source = text()
    return Self.listed(diagnostics).map { LSPDiagnostic($0, in: source, positionEncoding) }
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
      data: .object(["diagnostics": .array(lspDiagnostics(loaded.diagnostics, { source }).map(\.jsonValue))]))
  }

  /// Where `uri`'s text comes from: `text` (UTF-8) when given, else the file a `file:` uri names.
  func source(uri: String, text: [UInt8]?) throws(ResponseError) -> OutlineSource {
    if let text { return .text(text) }
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

  /// Replaces `doc`'s outline with a new text, keeping the user's expansion by id;
  /// with errors, the last good outline stays (`applied: false`). Either way
  /// the new text is the one the server keeps (PROTOCOL §9); when the load
  /// fails (cancelled, a file that cannot be read) nothing changes.
  func reload(_ doc: OpenDocument, from source: OutlineSource, cancellation: CancellationToken) throws(ResponseError)
    -> ChangeOutlineRequest.Result
  {
    let loaded = try load(source, cancellation: cancellation)
    try cancellation.check()
    doc.text = loaded.kept(from: source)
    if let stamp = loaded.stamp { doc.fileStamp = stamp }
    guard let outline = loaded.outline else {
      // The last good outline stays.
      return ChangeOutlineRequest.Result(
        applied: false, version: doc.state.version, diagnostics: lspDiagnostics(loaded.diagnostics, loaded.text),
        changes: [])
    }
    let changes = doc.state.replace(with: outline)
    return ChangeOutlineRequest.Result(
      applied: true, version: doc.state.version,
      diagnostics: lspDiagnostics(loaded.diagnostics + doc.state.warnings, loaded.text), changes: changes)
  }

  /// Reloads a watched file that changed and tells the client (`outlineChanged`).
  /// Runs on the worker, as a job.
  func watchedFileChanged(_ uri: String) {
    guard let doc = documents[uri], let path = doc.filePath else { return }
    // A change already read (a reload made when edits needed the file) is not read twice.
    if let stamp = doc.fileStamp, RegularFile.Stamp.of(path: path) == stamp { return }
    let changed: ChangeOutlineRequest.Result
    do {
      changed = try reload(doc, from: .file(path: path), cancellation: CancellationToken())
    } catch {
      log.warn("watched file \(path) cannot be read (\(error.message)); keeping the last good outline")
      return
    }
    log.info("\(path) changed on disk: version \(doc.state.version)")
    sendNotification?(OutlineChanged.method, OutlineChanged(uri: uri, result: changed))
  }
}

/// `outlineChanged {uri, version, changes, diagnostics}` (PROTOCOL §3), from
/// the server: a watched file changed and was loaded as `changeOutline` would.
struct OutlineChanged: JSONWritable {
  static let method = "outlineChanged"
  var uri: String
  var result: ChangeOutlineRequest.Result

  func write(to json: inout JSONWriter) {
    json.object { json in
      json.member("uri", uri)
      json.member("version", result.version)
      json.member("changes", result.changes)
      json.member("diagnostics", result.diagnostics)
    }
  }
}
