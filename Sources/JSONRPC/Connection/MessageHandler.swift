/// A request or notification handed to a ``MessageHandler`` (JSON-RPC 2.0 §4).
public struct IncomingMessage: Sendable {
  /// The method name, e.g. `initialize`.
  public let method: String
  /// `params`: an object or an array, read in place from the body's parsed tape; `nil`
  /// when absent or `null`.
  public let params: JSONElement?
  /// The request id; `nil` for a notification.
  public let id: RequestID?
  /// Marked by `$/cancelRequest {id}`; never marked for a notification.
  public let cancellation: CancellationToken

  /// A message with the given members; a request gets a fresh, unmarked token by default.
  public init(
    method: String, params: JSONElement?, id: RequestID?, cancellation: CancellationToken = CancellationToken()
  ) {
    self.method = method
    self.params = params
    self.id = id
    self.cancellation = cancellation
  }

  /// A message whose `params` are given as a ``JSONValue`` (put on a tape of their own;
  /// `.null` reads as absent), for tests and in-process callers.
  ///
  /// - Complexity: O(n) in the size of `params`.
  @_disfavoredOverload
  public init(
    method: String, params: JSONValue?, id: RequestID?, cancellation: CancellationToken = CancellationToken()
  ) {
    let element = params.flatMap { $0.isNull ? nil : JSONElement($0) }
    self.init(method: method, params: element, id: id, cancellation: cancellation)
  }

  /// `true` when there is no id: the message is never answered.
  public var isNotification: Bool { id == nil }
}

/// Handles the requests and notifications of a ``Connection``, one at a time, in the order
/// received.
///
/// A handler returns each result as a value that writes itself into the reply
/// (``JSONWritable``: a typed result, or a ``JSONValue``), so no tree is built for it.
///
/// - Important: ``result(for:)`` is only ever called on the connection's single worker
///   thread, never concurrently, and so are the jobs given to ``Connection/perform(_:)``; a
///   handler that owns mutable state can rely on that (and say so where it declares
///   `@unchecked Sendable`).
public protocol MessageHandler: AnyObject, Sendable {
  /// Handles one message; the result is written into the reply by its ``JSONWritable``
  /// conformance.
  ///
  /// - Returns: the `result` of a request; ignored for a notification.
  /// - Throws: ``ResponseError``, sent as the `error` of a request (logged for a
  ///   notification). A long handler polls `message.cancellation.isCancelled` and throws
  ///   ``ResponseError/cancelled`` (`-32800`).
  func result(for message: IncomingMessage) throws(ResponseError) -> any JSONWritable

  /// Told of a request that was cancelled while queued, just before the
  /// connection answers it `-32800` without calling ``result(for:)``: the
  /// place to close what the request's method promises to every request
  /// (LSP 3.17 §Work Done Progress: a `begin` and an `end` for a `workDoneToken`).
  /// Called on the worker thread, like ``result(for:)``. Does nothing by default.
  func cancelledBeforeStart(_ message: IncomingMessage)

  /// Whether `message` is quick to handle: a few microseconds of work and nothing that
  /// polls for cancellation. A quick message is handled on the reader's thread when the
  /// worker is idle (holding the worker's role, so still one at a time and in order),
  /// saving a thread hand-off; anything else goes to the worker's thread, which leaves the
  /// reader free to act on `$/cancelRequest` and `exit` meanwhile. Called on the reader.
  /// `false` by default.
  func isQuick(_ message: IncomingMessage) -> Bool
}

extension MessageHandler {
  /// Does nothing.
  public func cancelledBeforeStart(_ message: IncomingMessage) {}

  /// `false`: every message goes to the worker's thread.
  public func isQuick(_ message: IncomingMessage) -> Bool { false }
}
