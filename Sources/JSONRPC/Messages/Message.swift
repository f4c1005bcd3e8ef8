import Foundation

/// One JSON-RPC message read from the peer, classified (JSON-RPC 2.0 §4, §5).
public enum Message: Sendable, Equatable {
  /// A request: has a valid `id` and a string `method`; must be answered.
  case request(id: RequestID, method: String, params: JSONValue?)
  /// A notification: a `method` and no `id`; never answered (JSON-RPC 2.0 §4.1).
  case notification(method: String, params: JSONValue?)
  /// A response to a request of ours (`result` or `error`, no `method`); accepted and not
  /// answered. `id` is `nil` when it was `null` or not a valid id.
  case response(id: RequestID?, result: Result<JSONValue, ResponseError>)
  /// Something that must be answered with `error` and `id` (`nil` = `null`): invalid JSON
  /// (`-32700`), or a value that is not a request (`-32600`).
  case invalid(id: RequestID?, error: ResponseError)
}

/// A decoded body: one message, or a batch (JSON-RPC 2.0 §6).
public enum MessageBody: Sendable, Equatable {
  /// A single message (not an array).
  case single(Message)
  /// A non-empty batch, elements in input order.
  case batch([Message])
}

extension Message {
  /// Decodes one framed body (JSON-RPC 2.0 §4–§6).
  ///
  /// - Invalid JSON or invalid UTF-8 (including unpaired surrogate escapes and nesting deeper
  ///   than 512) → `.single(.invalid(id: nil, -32700))`.
  /// - `[]` → `.single(.invalid(id: nil, -32600))` (one error, not an array).
  /// - A non-empty array → `.batch`, each element classified by ``classify(_:)``.
  /// - Anything else → `.single(classify(value))`.
  ///
  /// - Complexity: O(n) in the size of the body.
  public static func decodeBody(_ bytes: Data) -> MessageBody {
    decodeBody(parsing: { () throws(JSONParseError) in try JSONValue.parse(bytes) })
  }

  private static func decodeBody(parsing: () throws(JSONParseError) -> JSONValue) -> MessageBody {
    let value: JSONValue
    do {
      value = try parsing()
    } catch {
      return .single(.invalid(id: nil, error: ResponseError(code: .parseError, message: "parse error: \(error)")))
    }
    if case .array(let elements) = value {
      if elements.isEmpty {
        return .single(.invalid(id: nil, error: ResponseError(code: .invalidRequest, message: "empty batch")))
      }
      return .batch(elements.map(classify))
    }
    return .single(classify(value))
  }

  /// Decodes one framed body; see ``decodeBody(_:)-([UInt8])``.
  public static func decodeBody(_ bytes: [UInt8]) -> MessageBody {
    decodeBody(parsing: { () throws(JSONParseError) in try JSONValue.parse(bytes) })
  }

  /// Classifies one JSON value as a request, notification, response or invalid request.
  ///
  /// A request needs `"jsonrpc": "2.0"`, a string `method`, `params` absent, `null`, an
  /// object or an array (`null` is read as absent, as editors send it), and an `id` that is
  /// an integer or a string. A present but invalid `id` (`null`, fractional, bool, array,
  /// object) makes it `-32600` with `id: null`; any other defect is `-32600` echoing the id.
  /// No `method` but a `result` or an `error` is a response.
  public static func classify(_ value: JSONValue) -> Message {
    guard case .object(let object) = value else {
      return .invalid(id: nil, error: invalidRequest("not a request object"))
    }
    let rawID = object["id"]
    let id = rawID.flatMap(RequestID.init)
    if object["method"] == nil, object["result"] != nil || object["error"] != nil {
      if let result = object["result"] {
        return .response(id: id, result: .success(result))
      }
      let error =
        ResponseError(object["error"]!)
        ?? ResponseError(code: .internalError, message: "malformed error object", data: object["error"])
      return .response(id: id, result: .failure(error))
    }
    guard object["jsonrpc"] == .string("2.0") else {
      return .invalid(id: id, error: invalidRequest("\"jsonrpc\" must be \"2.0\""))
    }
    guard let methodValue = object["method"] else {
      return .invalid(id: id, error: invalidRequest("missing \"method\""))
    }
    guard case .string(let method) = methodValue else {
      return .invalid(id: id, error: invalidRequest("\"method\" must be a string"))
    }
    if let rawID, id == nil {
      let kind: String
      switch rawID {
      case .double: kind = "a fraction"
      case .null: kind = "null"
      default: kind = "not an integer or a string"
      }
      return .invalid(id: nil, error: invalidRequest("\"id\" is \(kind)"))
    }
    var params = object["params"]
    switch params {
    case nil, .object?, .array?: break
    case .null?: params = nil
    default:
      return .invalid(id: id, error: invalidRequest("\"params\" must be an object or an array"))
    }
    if let id {
      return .request(id: id, method: method, params: params)
    }
    return .notification(method: method, params: params)
  }

  private static func invalidRequest(_ message: String) -> ResponseError {
    ResponseError(code: .invalidRequest, message: "invalid request: \(message)")
  }
}

// MARK: - Building outgoing messages

extension Message {
  /// A response object: `{"jsonrpc":"2.0","id":…,"result":…}` or `{…,"error":{code,message,data?}}`
  /// (JSON-RPC 2.0 §5). A `nil` id is written `null`.
  public static func responseObject(id: RequestID?, result: Result<JSONValue, ResponseError>) -> JSONValue {
    var object: [String: JSONValue] = ["jsonrpc": "2.0", "id": id?.jsonValue ?? .null]
    switch result {
    case .success(let value): object["result"] = value
    case .failure(let error): object["error"] = error.jsonValue
    }
    return .object(object)
  }

  /// A notification object: `{"jsonrpc":"2.0","method":…,"params"?:…}` (JSON-RPC 2.0 §4.1).
  public static func notificationObject(method: String, params: JSONValue?) -> JSONValue {
    var object: [String: JSONValue] = ["jsonrpc": "2.0", "method": .string(method)]
    if let params { object["params"] = params }
    return .object(object)
  }

  /// A request object: `{"jsonrpc":"2.0","id":…,"method":…,"params"?:…}` (JSON-RPC 2.0 §4).
  public static func requestObject(id: RequestID, method: String, params: JSONValue?) -> JSONValue {
    var object: [String: JSONValue] = ["jsonrpc": "2.0", "id": id.jsonValue, "method": .string(method)]
    if let params { object["params"] = params }
    return .object(object)
  }
}
