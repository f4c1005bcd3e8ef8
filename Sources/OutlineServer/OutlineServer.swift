import Foundation
import JSONRPC
import OutlineModel
import OutlineYAML

/// The outline server: answers the methods of PROTOCOL §2–§5 on outlines it
/// keeps open, one request at a time, in the order received.
///
/// It wires the outline model to the JSON-RPC transport: params are read
/// into model calls, model results written back as JSON. It depends on the
/// ``JSONRPC/Connection`` only to send notifications and to flush before
/// `exit`, so tests can drive it in-process through ``handle(_:)``.
///
/// - Important: all state is touched only from the connection's single
///   worker (or a test's thread), never concurrently.
public final class OutlineServer: MessageHandler, @unchecked Sendable {
  // @unchecked Sendable: the Connection calls `handle` from one serial worker
  // only, so the mutable state below is confined to that worker.

  let options: ServerOptions
  let log: Logger
  let widths: any ClusterWidthTable
  /// Called for the `exit` notification with the exit status; the default flushes and exits.
  let exitProcess: @Sendable (Int32) -> Void

  private(set) var initialized = false
  private(set) var shutdownRequested = false
  var positionEncoding: PositionEncoding = .utf16
  var documents: [String: OpenDocument] = [:]
  /// Where view state is saved, or `nil` when it is not.
  let viewStates: ViewStateStore?
  /// Guards all of the above against the debounced view-state saver.
  let lock = NSLock()
  /// Whether a debounced save is scheduled.
  var saveScheduled = false
  /// Sends a notification to the client (`outlineChanged`, `$/progress`); `nil` in process.
  public var sendNotification: (@Sendable (String, JSONValue) -> Void)?
  /// Polls the files opened with `watch: true`.
  lazy var watcher = FileWatcher { [weak self] uri in self?.watchedFileChanged(uri) }

  /// A server with no outline open, not yet initialized.
  ///
  /// - Parameters:
  ///   - options: command-line options; the state directory is taken from them.
  ///   - log: where problems are reported (stderr).
  ///   - widths: classifies grapheme clusters for `auto` heights; Unicode's tables by default.
  ///   - exitProcess: called for the `exit` notification with the status (0 after `shutdown`,
  ///     else 1, PROTOCOL §2).
  public init(
    options: ServerOptions = ServerOptions(), log: Logger = Logger(),
    widths: any ClusterWidthTable = UnicodeClusterWidths(),
    exitProcess: @escaping @Sendable (Int32) -> Void
  ) {
    self.options = options
    self.log = log
    self.widths = widths
    self.exitProcess = exitProcess
    self.viewStates = options.stateDirectory.map { ViewStateStore(directory: $0, log: log) }
  }

  /// Whether `shutdown` was answered: the process's exit status is 0 then, else 1.
  public var exitStatus: Int32 { shutdownRequested ? 0 : 1 }

  /// Answers one request or notification (PROTOCOL §2 lifecycle first, then the method).
  /// - Throws: a ``JSONRPC/ResponseError`` with a code of PROTOCOL §7.
  public func handle(_ message: IncomingMessage) throws(ResponseError) -> JSONValue {
    lock.lock()
    defer { lock.unlock() }
    let start = log.isEnabled(.debug) ? DispatchTime.now().uptimeNanoseconds : 0
    defer {
      if start > 0 {
        let ms = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        log.debug("\(message.method)\(message.id.map { " #\($0)" } ?? "") took \(String(format: "%.2f", ms)) ms")
      }
    }
    let result = try handleLocked(message)
    if Self.viewStateMethods.contains(message.method), let uri = message.params?["uri"]?.stringValue {
      markViewStateChanged(uri)
    }
    return result
  }

  /// An `openOutline` with a `workDoneToken` cancelled while queued still gets
  /// its `begin` and `end` (PROTOCOL §2: one of each for every such open).
  public func cancelledBeforeStart(_ message: IncomingMessage) {
    guard message.method == "openOutline", let token = message.params?["workDoneToken"],
      token.stringValue != nil || token.intValue != nil
    else { return }
    let uri = message.params?["uri"]?.stringValue ?? ""
    let progress = WorkDoneProgress(token: token.jsonValue, title: "Opening \(uri)", send: sendNotification)
    progress.begin()
    progress.end()
  }

  private func handleLocked(_ message: IncomingMessage) throws(ResponseError) -> JSONValue {
    if message.isNotification {
      handleNotification(message)
      return .null
    }
    if message.method == "initialize" {
      guard !initialized else { throw ResponseError(code: .invalidRequest, message: "initialize was already received") }
      guard !shutdownRequested else { throw afterShutdown() }
      return try initialize(Params(message.params?.jsonValue))
    }
    guard initialized else {
      throw ResponseError(code: .serverNotInitialized, message: "the server is not initialized: send initialize first")
    }
    guard !shutdownRequested else { throw afterShutdown() }
    guard Self.methodNames.contains(message.method) else { throw .methodNotFound(message.method) }
    return try dispatch(message.method, Params(message.params?.jsonValue), message.cancellation)
  }

  private func afterShutdown() -> ResponseError {
    ResponseError(code: .invalidRequest, message: "the server is shutting down: only exit is accepted")
  }

  private func handleNotification(_ message: IncomingMessage) {
    switch message.method {
    case "exit":
      saveViewStates(all: true)
      exitProcess(exitStatus)
    default:
      // `initialized` and unknown notifications are ignored, as LSP asks.
      log.debug("ignored notification \(message.method)")
    }
  }

  /// The request methods answered after `initialize`.
  static let methodNames = [
    "shutdown", "openOutline", "changeOutline", "closeOutline", "toggleSection", "expandAll", "collapseAll",
    "visibleRows", "rowAtOffset", "setLayout", "rowHeights", "filterOutline", "navigate", "getViewState",
    "setViewState",
  ]

  /// Methods after which a file's view state is saved (debounced).
  static let viewStateMethods: Set<String> = [
    "changeOutline", "toggleSection", "expandAll", "collapseAll", "visibleRows", "navigate", "setViewState",
    "filterOutline",
  ]

  private func dispatch(_ method: String, _ p: Params, _ c: CancellationToken) throws(ResponseError) -> JSONValue {
    switch method {
    case "shutdown": return shutdown()
    case "openOutline": return try openOutline(p, c)
    case "changeOutline": return try changeOutline(p, c)
    case "closeOutline": return try closeOutline(p)
    case "toggleSection": return try toggleSection(p)
    case "expandAll": return try expandAll(p)
    case "collapseAll": return try collapseAll(p)
    case "visibleRows": return try visibleRows(p)
    case "rowAtOffset": return try rowAtOffset(p)
    case "setLayout": return try setLayout(p)
    case "rowHeights": return try rowHeights(p)
    case "filterOutline": return try filterOutline(p)
    case "navigate": return try navigate(p)
    case "getViewState": return try getViewState(p)
    case "setViewState": return try setViewState(p)
    default: throw .methodNotFound(method)
    }
  }

  // MARK: Lifecycle

  private func initialize(_ p: Params) throws(ResponseError) -> JSONValue {
    var encoding = PositionEncoding.utf16
    if p.has("clientInfo") { _ = try p.optionalObject("clientInfo") }
    if let capabilities = try p.optionalObject("capabilities"),
      let general = try capabilities.optionalObject("general"),
      let list = general.value("positionEncodings")
    {
      guard case .array(let names) = list else {
        throw .invalidParams("\"capabilities.general.positionEncodings\" must be an array of strings")
      }
      guard names.allSatisfy({ $0.stringValue != nil }) else {
        throw .invalidParams("\"capabilities.general.positionEncodings\" must be an array of strings")
      }
      // The first one the server supports, in the client's order.
      for case .string(let name) in names {
        if let e = PositionEncoding(rawValue: name) {
          encoding = e
          break
        }
      }
    }
    positionEncoding = encoding
    initialized = true
    return .object([
      "serverInfo": .object(["name": .string(ServerInfo.name), "version": .string(ServerInfo.version)]),
      "capabilities": .object([
        "positionEncoding": .string(encoding.rawValue),
        "policies": .array(ExpansionPolicy.allCases.map { .string($0.rawValue) }),
        "units": .array(LayoutUnit.allCases.map { .string($0.rawValue) }),
        "methods": .array(Self.methodNames.map(JSONValue.string)),
      ]),
    ])
  }

  private func shutdown() -> JSONValue {
    shutdownRequested = true
    saveViewStates(all: true)
    return .null
  }

  // MARK: Saved view state

  /// Notes that `uri`'s view state changed; it is saved within about half a second.
  private func markViewStateChanged(_ uri: String) {
    guard let viewStates = viewStates, let doc = documents[uri], doc.path != nil else { return }
    _ = viewStates
    doc.viewStateDirty = true
    guard !saveScheduled else { return }
    saveScheduled = true
    DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { [weak self] in
      guard let self else { return }
      self.lock.lock()
      self.saveScheduled = false
      self.saveViewStates(all: false)
      self.lock.unlock()
    }
  }

  /// Saves the view state of every open file outline now (at the end of input).
  public func saveAllViewStates() {
    lock.lock()
    defer { lock.unlock() }
    saveViewStates(all: true)
  }

  /// Saves the view state of the changed file outlines (every file outline with `all`).
  /// - Important: call with `lock` held.
  func saveViewStates(all: Bool) {
    guard let viewStates else { return }
    for doc in documents.values where all || doc.viewStateDirty {
      if let saved = doc.savedViewState { viewStates.save(saved) }
      doc.viewStateDirty = false
    }
  }

  // MARK: Shared helpers

  func document(_ p: Params) throws(ResponseError) -> OpenDocument {
    let uri = try p.string("uri")
    guard let doc = documents[uri] else {
      throw ResponseError(code: .unknownOutline, message: "no open outline has uri \"\(uri)\"")
    }
    return doc
  }
}
