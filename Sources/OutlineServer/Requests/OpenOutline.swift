import Foundation
import JSONRPC
import OutlineModel

/// `openOutline {uri, text?, policy?, layout?, watch?, workDoneToken?}`
/// (PROTOCOL §3) → `{version, total, groupCount, rowCount, diagnostics}`.
///
/// Errors in the text are `-32011` with `data.diagnostics`; an unreadable
/// file is `-32013`. Opening an open uri replaces its outline: under the
/// same policy as `changeOutline` does; under another, the view is rebuilt
/// and the user's expansion, focus, scroll and filter are kept by id.
struct OpenOutlineRequest: OutlineDocumentRequest {
  static let method = "openOutline"

  let uri: String
  /// The text, as UTF-8.
  var text: [UInt8]?
  var policy: ExpansionPolicy?
  var layout: LayoutOverrides?
  var watch: Bool
  /// `$/progress` is sent under this token (a string or an integer).
  var workDoneToken: JSONValue?

  init(_ p: ParamsReader) throws(ResponseError) {
    let uri = try p.string("uri")
    self.uri = uri
    text = try p.optionalBytes("text")
    policy = try p.optionalEnum("policy", ExpansionPolicy.self)
    layout = try p.optionalObject("layout").map { l throws(ResponseError) in try LayoutFields.read(l) }
    watch = try p.optionalBool("watch") ?? false
    if watch {
      guard URL(string: uri)?.isFileURL == true else { throw .invalidParams("\"watch\" needs a file: uri") }
    }
    if let token = p.value("workDoneToken") {
      guard token.kind == .string || token.kind == .int else {
        throw p.fail("workDoneToken", "must be a string or an integer")
      }
      workDoneToken = token.jsonValue
    }
  }

  func run(on server: OutlineServer, cancellation: CancellationToken) throws(ResponseError) -> Result {
    let source = try server.source(uri: uri, text: text)
    let path = ViewStateStore.realPath(ofURI: uri)
    // A first open of a file takes its saved view state: read before the outline, so the
    // memory reading it takes is given back before the outline's is taken.
    let saved = server.documents[uri] == nil ? path.flatMap { server.viewStates?.load(path: $0) } : nil
    let progress = workDoneToken.map {
      WorkDoneProgress(token: $0, title: "Opening \(uri)", send: server.sendNotification)
    }
    progress?.begin()
    let loaded: OutlineServer.Loaded
    do {
      loaded = try server.load(source, cancellation: cancellation, progress: progress.map { p in { p.report($0) } })
    } catch {
      progress?.end()
      throw error
    }
    progress?.end()
    guard let outline = loaded.outline else {
      // The outline stays, but the host's text is this one now (PROTOCOL §9).
      if let previous = server.documents[uri] {
        previous.text = loaded.kept(from: source)
        if let stamp = loaded.stamp { previous.fileStamp = stamp }
      }
      throw server.invalidOutline(loaded)
    }
    let hostLayout = server.documents[uri]?.state.hostLayout ?? LayoutOverrides()
    try LayoutFields.checkFont(outline.layout.merged(with: hostLayout).merged(with: layout ?? LayoutOverrides()))
    var state: OutlineState
    /// On a re-open: the change list from the visible list the host had.
    var changes: [OutlineChange]? = nil
    if let previous = server.documents[uri], policy == nil || policy == previous.state.policy {
      // Re-opening under the same policy is a new text for the same outline,
      // as changeOutline: expansion, filter, focus, scroll and the host's
      // layout stay; a `layout` is applied as setLayout; the version moves
      // only if something shown changed.
      state = previous.state
      changes = state.replace(with: outline)
      if let layout { _ = state.setLayout(layout) }
    } else if let previous = server.documents[uri] {
      // Another policy: the file's defaults under it, then the user's view.
      let old = previous.state
      state = OutlineState(
        outline: outline, policy: policy, layout: layout ?? LayoutOverrides(), lineBreakers: server.lineBreakers)
      state.restoreView(
        expansion: old.expansionByID.lazy.map { (id: $0.key, expanded: $0.value) },
        focus: old.focus.map { old.outline.id(at: $0) }, scrollTop: old.scrollTop, after: old.version)
      if let query = old.filterQuery { _ = state.filter(query) }
      // Under another policy the whole list is new.
      changes = [
        OutlineChange(.delete, start: 0, count: old.total), OutlineChange(.insert, start: 0, count: state.total),
      ]
      .filter { $0.count > 0 }
    } else if let saved {
      // The user's saved view wins over the file's defaults; ids that left the file are dropped.
      // Open wins over closed for an id in both lists: the expanded come last.
      state = OutlineState(
        outline: outline, policy: policy, layout: layout ?? LayoutOverrides(), lineBreakers: server.lineBreakers,
        restoring: [
          saved.collapsed.lazy.map { (id: $0, expanded: false) }, saved.expanded.lazy.map { (id: $0, expanded: true) },
        ].joined())
      state.setFocus(saved.focus.flatMap { state.outline.position(of: $0) })
      state.scrollTop = saved.scrollTop
    } else {
      state = OutlineState(
        outline: outline, policy: policy, layout: layout ?? LayoutOverrides(), lineBreakers: server.lineBreakers)
    }
    try cancellation.check()
    var filePath: String?
    if case .file(let named) = source { filePath = named }
    let doc = OpenDocument(uri: uri, state: state, path: path, filePath: filePath, text: loaded.kept(from: source))
    doc.watched = watch && filePath != nil
    server.documents[uri] = doc
    server.log.info(
      "opened \(uri): \(outline.groupCount) groups, \(outline.rowCount) rows, \(outline.textBytes) bytes of text"
        + (watch ? ", watched" : ""))
    if watch, let filePath {
      server.watcher.watch(uri, path: filePath)
    } else {
      server.watcher.unwatch(uri)
    }
    return Result(
      version: state.version, total: state.total, groupCount: outline.groupCount, rowCount: outline.rowCount,
      diagnostics: server.lspDiagnostics(loaded.diagnostics + state.warnings, loaded.text), changes: changes)
  }

  /// `{version, total, groupCount, rowCount, diagnostics}`.
  struct Result: JSONWritable {
    var version: Int
    /// Length of the visible list.
    var total: Int
    var groupCount: Int
    var rowCount: Int
    /// The warnings (a text with errors is `-32011`).
    var diagnostics: [LSPDiagnostic]
    /// On a re-open of an open uri: the changes from the visible list before it.
    var changes: [OutlineChange]?

    func write(to json: inout JSONWriter) {
      json.object { json in
        json.member("version", version)
        json.member("total", total)
        json.member("groupCount", groupCount)
        json.member("rowCount", rowCount)
        json.member("diagnostics", diagnostics)
        json.member("changes", ifPresent: changes)
      }
    }
  }
}
