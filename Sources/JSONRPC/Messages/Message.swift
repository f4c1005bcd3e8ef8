import Foundation

/// One JSON-RPC message read from the peer, classified (JSON-RPC 2.0 §4, §5).
public enum Message: Sendable, Equatable {
  /// A request: has a valid `id` and a string `method`; must be answered. `params` is an
  /// object or an array, `nil` when absent or `null`, read in place from the body's tape.
  case request(id: RequestID, method: String, params: JSONElement?)
  /// A notification: a `method` and no `id`; never answered (JSON-RPC 2.0 §4.1).
  case notification(method: String, params: JSONElement?)
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
  /// Decodes one framed body in place, with the caller's parser: how the connection reads
  /// each body straight from the framer's buffer (see ``MessageFramer/withNextBody(_:)``).
  ///
  /// - Invalid JSON or invalid UTF-8 (including unpaired surrogate escapes and nesting deeper
  ///   than 512) → `.single(.invalid(id: nil, -32700))`, the message naming the fault's line
  ///   and column.
  /// - `[]` → `.single(.invalid(id: nil, -32600))` (one error, not an array).
  /// - A non-empty array → `.batch`, each element classified by ``classify(_:)``.
  /// - Anything else → `.single(classify(value))`.
  ///
  /// - Complexity: O(n) in the size of the body.
  public static func decodeBody(_ body: PaddedBytes, parser: JSONParser) -> MessageBody {
    decodeBody(parsing: { () throws(JSONParseError) in try parser.parse(body) })
  }

  /// Decodes one framed body with a shared parser (copying it once into the parser's
  /// padded buffer); see ``decodeBody(_:parser:)``.
  public static func decodeBody(_ bytes: [UInt8]) -> MessageBody {
    decodeBody(parsing: { () throws(JSONParseError) in try JSONDocument(parsing: bytes) })
  }

  private static func decodeBody(parsing: () throws(JSONParseError) -> JSONDocument) -> MessageBody {
    let document: JSONDocument
    do {
      document = try parsing()
    } catch {
      return .single(.invalid(id: nil, error: ResponseError(code: .parseError, message: "parse error: \(error)")))
    }
    return decodeBody(document)
  }

  /// Classifies a parsed body: a batch when it is an array; see ``decodeBody(_:parser:)``.
  ///
  /// - Complexity: O(m) in the members of the top-level object(s); nested values are
  ///   skipped, not read.
  public static func decodeBody(_ document: JSONDocument) -> MessageBody {
    let root = document.root
    if let elements = root.elements {
      if elements.count == 0 {
        return .single(.invalid(id: nil, error: ResponseError(code: .invalidRequest, message: "empty batch")))
      }
      return .batch(elements.map(classify))
    }
    return .single(classify(root))
  }

  /// Classifies one JSON value as a request, notification, response or invalid request.
  ///
  /// A request needs `"jsonrpc": "2.0"`, a string `method`, `params` absent, `null`, an
  /// object or an array (`null` is read as absent, as editors send it), and an `id` that is
  /// an integer or a string. A present but invalid `id` (`null`, fractional, bool, array,
  /// object) makes it `-32600` with `id: null`; any other defect is `-32600` echoing the id.
  /// No `method` but a `result` or an `error` is a response. A repeated member name: the
  /// last one counts.
  ///
  /// - Complexity: O(m) in the number of members; member names are compared as bytes and
  ///   only `method` (and a string id) become Strings.
  public static func classify(_ value: JSONElement) -> Message {
    guard let members = value.members else {
      return .invalid(id: nil, error: invalidRequest("not a request object"))
    }
    var fields = Fields()
    for member in members {
      switch member.name.withUTF8(Fields.Name.init) ?? nil {
      case .jsonrpc?: fields.jsonrpc = member.value
      case .id?: fields.id = member.value
      case .method?: fields.method = member.value
      case .params?: fields.params = member.value
      case .result?: fields.result = member.value
      case .error?: fields.error = member.value
      case nil: break
      }
    }
    let id = fields.id.flatMap(RequestID.init)
    if fields.method == nil, fields.result != nil || fields.error != nil {
      if let result = fields.result {
        return .response(id: id, result: .success(result.jsonValue))
      }
      let data = fields.error!.jsonValue
      let error =
        ResponseError(data) ?? ResponseError(code: .internalError, message: "malformed error object", data: data)
      return .response(id: id, result: .failure(error))
    }
    guard fields.jsonrpc?.isString("2.0") == true else {
      return .invalid(id: id, error: invalidRequest("\"jsonrpc\" must be \"2.0\""))
    }
    guard let methodValue = fields.method else {
      return .invalid(id: id, error: invalidRequest("missing \"method\""))
    }
    guard let method = methodValue.stringValue else {
      return .invalid(id: id, error: invalidRequest("\"method\" must be a string"))
    }
    if let rawID = fields.id, id == nil {
      let kind: String
      switch rawID.kind {
      case .double:
        // An integral number within 64 bits reads as an integer (1.0 and 1e2 are ids); one
        // beyond is read as a double, as a fraction is.
        if let d = rawID.doubleValue, d.rounded() == d {
          kind = "an integer outside the 64-bit range"
        } else {
          kind = "a fraction"
        }
      case .null: kind = "null"
      default: kind = "not an integer or a string"
      }
      return .invalid(id: nil, error: invalidRequest("\"id\" is \(kind)"))
    }
    var params = fields.params
    switch params?.kind {
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

  /// The members of a message object that JSON-RPC 2.0 names.
  private struct Fields {
    var jsonrpc: JSONElement?
    var id: JSONElement?
    var method: JSONElement?
    var params: JSONElement?
    var result: JSONElement?
    var error: JSONElement?

    enum Name {
      case jsonrpc, id, method, params, result, error

      /// The member named by the UTF-8 bytes `name`, if JSON-RPC names it.
      init?(_ name: UnsafeBufferPointer<UInt8>) {
        switch name.count {
        case 2 where Self.equal(name, "id"): self = .id
        case 5 where Self.equal(name, "error"): self = .error
        case 6 where Self.equal(name, "method"): self = .method
        case 6 where Self.equal(name, "params"): self = .params
        case 6 where Self.equal(name, "result"): self = .result
        case 7 where Self.equal(name, "jsonrpc"): self = .jsonrpc
        default: return nil
        }
      }

      private static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        JSONElement.equal(bytes, UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
      }
    }
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
