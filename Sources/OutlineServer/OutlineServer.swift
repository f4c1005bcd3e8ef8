import Dispatch
import Foundation
import JSONRPC
import OutlineModel
import OutlineYAML

/// The outline server: answers the methods of PROTOCOL §2–§6 on outlines it
/// keeps open, one request at a time, in the order received.
///
/// It wires the outline model to the JSON-RPC transport: each method is an
/// ``OutlineRequest`` (its params read from the message, its result written
/// into the reply), found by name in ``OutlineProtocol/requests``.
///
/// One owner of state: everything below is touched only on the connection's
/// single worker. Work that starts elsewhere — a watched file that changed,
/// a debounced save of view state, the client's process gone — is a job
/// handed to ``schedule``, which runs it on that worker between requests, so
/// replies and notifications leave in the order they were made.
///
/// - Important: call ``result(for:)`` and the jobs on one thread at a time
///   (the connection's worker, or a test's thread).
public final class OutlineServer: MessageHandler, @unchecked Sendable {
  // @unchecked Sendable: the Connection calls `result(for:)` from one serial
  // worker only, and every job that touches state is run on that worker
  // through `schedule`, so the mutable state below is confined to it.

  let options: ServerOptions
  let log: Logger
  /// Makes the line breaker of each layout (units cell, px and font).
  let lineBreakers: any LineBreakerSource
  /// Called for the `exit` notification with the exit status; the default flushes and exits.
  let exitProcess: @Sendable (Int32) -> Void

  private(set) var initialized = false
  private(set) var shutdownRequested = false
  var positionEncoding: PositionEncoding = .utf16
  var documents: [String: OpenDocument] = [:]
  /// Where view state is saved, or `nil` when it is not.
  let viewStates: ViewStateStore?
  /// Whether a debounced save is scheduled.
  private var saveScheduled = false
  /// Sends a notification to the client (`outlineChanged`, `$/progress`); `nil` sends nothing.
  public var sendNotification: (@Sendable (String, any JSONWritable) -> Void)?
  /// Runs a job on the worker, after what is queued there (``JSONRPC/Connection/perform(_:)``).
  /// `nil` (a test driving the server on its own thread): jobs are not run, so no file is
  /// watched and view state is saved only on `closeOutline`, `shutdown` and `exit`.
  public var schedule: (@Sendable (@escaping @Sendable () -> Void) -> Void)?
  /// Called, on a global queue (the worker may be busy with a long request
  /// then), when the client's process (`--clientProcessId`, `initialize`'s
  /// `processId`) is gone; `nil` watches nothing.
  public var clientProcessGone: (@Sendable (Int32) -> Void)?
  /// Watches the client's process, once a process id was given.
  private var clientMonitor: ClientProcessMonitor?
  /// Polls the files opened with `watch: true`; a change becomes a job on the worker.
  lazy var watcher = FileWatcher(
    changed: { [weak self] uri in
      self?.schedule? { [weak self] in self?.watchedFileChanged(uri) }
    },
    gone: { [log] uri in log.info("\(uri) is gone; waiting for it to come back") })

  /// A server with no outline open, not yet initialized.
  ///
  /// - Parameters:
  ///   - options: command-line options; the state directory is taken from them.
  ///   - log: where problems are reported (stderr).
  ///   - lineBreakers: makes the line breaker of each layout for `auto` heights; by default
  ///     ``OutlineServer/makeLineBreakers()``: fonts for unit `font`, Unicode's tables for `cell` and `px`.
  ///   - exitProcess: called for the `exit` notification with the status (0 after `shutdown`,
  ///     else 1, PROTOCOL §2).
  public init(
    options: ServerOptions = ServerOptions(), log: Logger = Logger(),
    lineBreakers: any LineBreakerSource = OutlineServer.makeLineBreakers(),
    exitProcess: @escaping @Sendable (Int32) -> Void
  ) {
    self.options = options
    self.log = log
    self.lineBreakers = lineBreakers
    self.exitProcess = exitProcess
    self.viewStates = options.stateDirectory.map { ViewStateStore(directory: $0, log: log) }
  }

  /// Whether `shutdown` was answered: the process's exit status is 0 then, else 1.
  public var exitStatus: Int32 { shutdownRequested ? 0 : 1 }

  // MARK: Messages

  /// Answers one request or notification: PROTOCOL §2's lifecycle first, then the method
  /// named, found in ``OutlineProtocol/requests``.
  /// - Returns: the request's result; ``NullResult`` for a notification.
  /// - Throws: a ``JSONRPC/ResponseError`` with a code of PROTOCOL §7.
  public func result(for message: IncomingMessage) throws(ResponseError) -> any JSONWritable {
    let start = log.isEnabled(.debug) ? DispatchTime.now().uptimeNanoseconds : 0
    defer {
      if start > 0 {
        let ms = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        log.debug("\(message.method)\(message.id.map { " #\($0)" } ?? "") took \(String(format: "%.2f", ms)) ms")
      }
    }
    if message.isNotification {
      handleNotification(message)
      return NullResult()
    }
    if message.method == InitializeRequest.method {
      guard !initialized else { throw ResponseError(code: .invalidRequest, message: "initialize was already received") }
      guard !shutdownRequested else { throw afterShutdown() }
      return try call(InitializeRequest.self, message)
    }
    guard initialized else {
      throw ResponseError(code: .serverNotInitialized, message: "the server is not initialized: send initialize first")
    }
    guard !shutdownRequested else { throw afterShutdown() }
    guard let request = OutlineProtocol.byMethod[message.method] else { throw .methodNotFound(message.method) }
    return try call(request, message)
  }

  /// Reads the params of `R`, runs it, and notes a change of view state.
  private func call<R: OutlineRequest>(_: R.Type, _ message: IncomingMessage) throws(ResponseError)
    -> any JSONWritable
  {
    let request = try R(ParamsReader(message.params))
    let result = try request.run(on: self, cancellation: message.cancellation)
    if R.changesViewState, let uri = request.viewStateURI { markViewStateChanged(uri) }
    return result
  }

  /// Notifications, unknown methods and the requests of O(log n + answer)
  /// work (``OutlineRequest/mayTakeLong`` false) are quick: the connection
  /// may handle them on its reader's thread when the worker is idle.
  public func isQuick(_ message: IncomingMessage) -> Bool {
    if message.isNotification { return true }
    // `initialize` and unknown methods are not in the registry: both are quick.
    guard let request = OutlineProtocol.byMethod[message.method] else { return true }
    return !request.mayTakeLong(message.params)
  }

  /// An `openOutline` with a `workDoneToken` cancelled while queued still gets
  /// its `begin` and `end` (PROTOCOL §2: one of each for every such open).
  public func cancelledBeforeStart(_ message: IncomingMessage) {
    guard message.method == OpenOutlineRequest.method, let open = try? OpenOutlineRequest(ParamsReader(message.params)),
      let token = open.workDoneToken
    else { return }
    let progress = WorkDoneProgress(token: token, title: "Opening \(open.uri)", send: sendNotification)
    progress.begin()
    progress.end()
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

  // MARK: Lifecycle

  /// Marks the server initialized with the negotiated position encoding (`initialize`).
  func didInitialize(encoding: PositionEncoding) {
    positionEncoding = encoding
    initialized = true
  }

  /// Marks `shutdown` received and saves every view state (`shutdown`).
  func didShutdown() {
    shutdownRequested = true
    saveViewStates(all: true)
  }

  /// Exits (through ``clientProcessGone``) once process `pid` is gone (LSP 3.17
  /// `processId`); replaces any process watched before.
  public func watchClientProcess(_ pid: Int32) {
    guard let gone = clientProcessGone else { return }
    clientMonitor = ClientProcessMonitor(pid: pid, onGone: gone)
  }

  // MARK: Saved view state

  /// Notes that `uri`'s view state changed; it is saved within about half a second,
  /// by a job on the worker.
  private func markViewStateChanged(_ uri: String) {
    guard viewStates != nil, let doc = documents[uri], doc.path != nil else { return }
    doc.viewStateDirty = true
    guard !saveScheduled, let schedule else { return }
    saveScheduled = true
    DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { [weak self] in
      schedule { [weak self] in
        guard let self else { return }
        self.saveScheduled = false
        self.saveViewStates(all: false)
      }
    }
  }

  /// Saves the view state of the changed file outlines (every file outline with `all`).
  public func saveViewStates(all: Bool) {
    guard let viewStates else { return }
    for doc in documents.values where all || doc.viewStateDirty {
      if let saved = doc.savedViewState { viewStates.save(saved) }
      doc.viewStateDirty = false
    }
  }

  // MARK: Shared helpers

  /// The open outline `uri` names.
  /// - Throws: `-32010 UnknownOutline`.
  func document(_ uri: String) throws(ResponseError) -> OpenDocument {
    guard let doc = documents[uri] else {
      throw ResponseError(code: .unknownOutline, message: "no open outline has uri \"\(uri)\"")
    }
    return doc
  }
}
