/// The `error` member of a JSON-RPC response (JSON-RPC 2.0 §5.1): `{code, message, data?}`.
///
/// A ``MessageHandler`` throws it to answer a request with an error.
public struct ResponseError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The error code (JSON-RPC 2.0 §5.1 `code`).
  public var code: ErrorCode
  /// A short, human-readable description (JSON-RPC 2.0 §5.1 `message`).
  public var message: String
  /// Extra information, omitted on the wire when `nil` (JSON-RPC 2.0 §5.1 `data`); e.g.
  /// `{diagnostics}` for `-32011` (PROTOCOL §3).
  public var data: JSONValue?

  /// An error with the given members.
  public init(code: ErrorCode, message: String, data: JSONValue? = nil) {
    self.code = code
    self.message = message
    self.data = data
  }

  /// `-32800`, for a handler that saw its ``CancellationToken`` marked.
  public static let cancelled = ResponseError(code: .requestCancelled, message: "request cancelled")

  /// `-32601` naming the method.
  public static func methodNotFound(_ method: String) -> ResponseError {
    ResponseError(code: .methodNotFound, message: "method not found: \(method)")
  }

  /// `-32602` with the given message (which should name the field).
  public static func invalidParams(_ message: String) -> ResponseError {
    ResponseError(code: .invalidParams, message: message)
  }

  /// The error object as it appears on the wire.
  public var jsonValue: JSONValue {
    var object: [String: JSONValue] = ["code": .int(Int64(code.rawValue)), "message": .string(message)]
    if let data { object["data"] = data }
    return .object(object)
  }

  /// Reads an error object; `nil` when `code` or `message` is missing or mistyped.
  public init?(_ value: JSONValue) {
    guard let code = value["code"]?.intValue, let message = value["message"]?.stringValue else { return nil }
    self.init(code: ErrorCode(rawValue: Int(code)), message: message, data: value["data"])
  }

  /// `code: message`, for logs.
  public var description: String { "\(code.rawValue): \(message)" }
}

extension ResponseError: JSONWritable {
  /// Writes the error object, `{"code":…,"data":…,"message":…}` (JSON-RPC 2.0 §5.1), members
  /// sorted by name as ``jsonValue`` is written; `data` is left out when `nil`.
  public func write(to json: inout JSONWriter) {
    json.object { json in
      json.member("code", code.rawValue)
      json.member("data", ifPresent: data)
      json.member("message", message)
    }
  }
}
