/// The `error` member of a JSON-RPC response (JSON-RPC 2.0 §5.1): `{code, message, data?}`.
///
/// A ``MessageHandler`` throws it to answer a request with an error.
public struct ResponseError: Error, Sendable, Hashable, CustomStringConvertible {
  public var code: ErrorCode
  public var message: String
  public var data: JSONValue?

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

  public var description: String { "\(code.rawValue): \(message)" }
}
