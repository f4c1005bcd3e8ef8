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

  public init(
    options: ServerOptions = ServerOptions(), log: Logger = Logger(),
    widths: any ClusterWidthTable = UnicodeClusterWidths(),
    exitProcess: @escaping @Sendable (Int32) -> Void
  ) {
    self.options = options
    self.log = log
    self.widths = widths
    self.exitProcess = exitProcess
  }

  /// Whether `shutdown` was answered: the process's exit status is 0 then, else 1.
  public var exitStatus: Int32 { shutdownRequested ? 0 : 1 }

  /// Answers one request or notification (PROTOCOL §2 lifecycle first, then the method).
  /// - Throws: a ``JSONRPC/ResponseError`` with a code of PROTOCOL §7.
  public func handle(_ message: IncomingMessage) throws(ResponseError) -> JSONValue {
    if message.isNotification {
      handleNotification(message)
      return .null
    }
    if message.method == "initialize" {
      guard !initialized else { throw ResponseError(code: .invalidRequest, message: "initialize was already received") }
      guard !shutdownRequested else { throw afterShutdown() }
      return try initialize(Params(message.params))
    }
    guard initialized else {
      throw ResponseError(code: .serverNotInitialized, message: "the server is not initialized: send initialize first")
    }
    guard !shutdownRequested else { throw afterShutdown() }
    guard Self.methodNames.contains(message.method) else { throw .methodNotFound(message.method) }
    return try dispatch(message.method, Params(message.params), message.cancellation)
  }

  private func afterShutdown() -> ResponseError {
    ResponseError(code: .invalidRequest, message: "the server is shutting down: only exit is accepted")
  }

  private func handleNotification(_ message: IncomingMessage) {
    switch message.method {
    case "exit":
      exitProcess(exitStatus)
    default:
      // `initialized` and unknown notifications are ignored, as LSP asks.
      log.debug("ignored notification \(message.method)")
    }
  }

  /// The request methods answered after `initialize`.
  static let methodNames = [
    "shutdown", "openOutline", "changeOutline", "closeOutline", "toggleSection", "expandAll", "collapseAll",
    "visibleRows", "rowAtOffset", "setLayout", "rowHeights",
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
    default: throw .methodNotFound(method)
    }
  }

  // MARK: Lifecycle

  private func initialize(_ p: Params) throws(ResponseError) -> JSONValue {
    var encoding = PositionEncoding.utf16
    if let capabilities = try p.optionalObject("capabilities"),
      let general = try capabilities.optionalObject("general"),
      let list = general.value("positionEncodings")
    {
      guard case .array(let names) = list else {
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
    return .null
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
