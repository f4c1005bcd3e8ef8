import JSONRPC

/// One request method of the outline protocol (PROTOCOL §2–§6, §9, §10): its name,
/// its params as a value, its result, and what it does.
///
/// A conforming type *is* the method's params: ``init(_:)`` reads them from
/// the request, turning a missing or wrongly typed field into `-32602` with
/// a message that names it, before anything runs. ``run(on:cancellation:)``
/// then does the work on the server's worker and returns a result that
/// writes itself into the reply (``JSONRPC/JSONWritable``).
///
/// A method is added in one place: a file in `Sources/OutlineServer/Requests/`
/// holding its type (params, result, work), and its name in
/// ``OutlineProtocol/requests``, from which dispatch, `initialize`'s
/// `capabilities.methods` and the view-state saving all come.
protocol OutlineRequest: Sendable {
  /// What the request answers, written by the JSON writer.
  associatedtype Result: JSONWritable

  /// The method name, e.g. `toggleSection`.
  static var method: String { get }

  /// Whether a successful call may change the view state saved for a
  /// `file:` outline (PROTOCOL §6): the outline named by an
  /// ``OutlineDocumentRequest``'s `uri` is then saved, debounced. `false` by
  /// default.
  static var changesViewState: Bool { get }

  /// Whether the request may take long: work proportional to the outline
  /// (O(n)), or a load that polls for cancellation. `false` marks a request
  /// of O(log n + answer) work, handled on the reader's thread when the
  /// worker is idle (``JSONRPC/MessageHandler/isQuick(_:)``). `true` by default.
  static var mayTakeLong: Bool { get }

  /// Whether a request with these `params` may take long; ``mayTakeLong`` unless a
  /// method's params can turn quick work into a long one. Read on the reader's
  /// thread, before the params are: O(members of `params`).
  static func mayTakeLong(_ params: JSONElement?) -> Bool

  /// The outline whose saved view state a successful call may change (with
  /// ``changesViewState``): an ``OutlineDocumentRequest``'s `uri`, else `nil`.
  var viewStateURI: String? { get }

  /// Reads the params (`params` absent or `null` reads as `{}`).
  /// - Throws: `-32602` naming the field.
  init(_ params: ParamsReader) throws(ResponseError)

  /// Does the work, on the server's worker.
  /// - Parameter cancellation: marked by `$/cancelRequest`; a long request polls it.
  /// - Throws: a ``JSONRPC/ResponseError`` with a code of PROTOCOL §7.
  func run(on server: OutlineServer, cancellation: CancellationToken) throws(ResponseError) -> Result
}

extension OutlineRequest {
  static var changesViewState: Bool { false }
  static var mayTakeLong: Bool { true }
  static func mayTakeLong(_ params: JSONElement?) -> Bool { mayTakeLong }
  var viewStateURI: String? { nil }
}

/// A request about one open outline, named by its `uri`.
protocol OutlineDocumentRequest: OutlineRequest {
  /// The outline's uri.
  var uri: String { get }
}

extension OutlineDocumentRequest {
  /// ``uri``: a statically chosen witness, so the server never casts a request to find it.
  var viewStateURI: String? { uri }

  /// The open outline ``uri`` names.
  /// - Throws: `-32010 UnknownOutline`.
  func document(on server: OutlineServer) throws(ResponseError) -> OpenDocument {
    try server.document(uri)
  }
}

/// The methods of the outline protocol, in the order `initialize` lists them.
enum OutlineProtocol {
  /// Every request method answered after `initialize`, in the order
  /// `capabilities.methods` lists them.
  static let requests: [any OutlineRequest.Type] = [
    ShutdownRequest.self, OpenOutlineRequest.self, ChangeOutlineRequest.self, CloseOutlineRequest.self,
    ToggleSectionRequest.self, ExpandAllRequest.self,
    CollapseAllRequest.self, VisibleRowsRequest.self, RowAtOffsetRequest.self, SetLayoutRequest.self,
    RowHeightsRequest.self, FilterOutlineRequest.self,
    NavigateRequest.self, GetViewStateRequest.self, SetViewStateRequest.self,
    ItemAtPositionRequest.self, RevealItemRequest.self,
  ]

  /// ``requests`` by method name.
  static let byMethod: [String: any OutlineRequest.Type] = Dictionary(
    uniqueKeysWithValues: requests.map { ($0.method, $0) })

  /// The names of ``requests``: `initialize`'s `capabilities.methods`.
  static var methodNames: [String] { requests.map { $0.method } }
}

/// The `null` result of `shutdown` and `closeOutline`.
struct NullResult: JSONWritable {
  func write(to json: inout JSONWriter) { json.null() }
}
