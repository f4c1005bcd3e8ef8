/// A JSON-RPC error code (JSON-RPC 2.0 §5.1, LSP 3.17 §ErrorCodes).
///
/// The named constants carry the specifications' names; a server adds its own codes in an
/// extension (`static let myError = ErrorCode(rawValue: -32010)`).
public struct ErrorCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
  /// The numeric code as sent in `error.code`.
  public let rawValue: Int

  /// Wraps any code; codes from -32768 to -32000 are reserved by JSON-RPC 2.0 §5.1.
  public init(rawValue: Int) {
    self.rawValue = rawValue
  }

  /// `-32700`: the body is not valid JSON or not valid UTF-8 (JSON-RPC 2.0 §5.1).
  public static let parseError = ErrorCode(rawValue: -32700)
  /// `-32600`: the JSON value is not a valid request object (JSON-RPC 2.0 §5.1).
  public static let invalidRequest = ErrorCode(rawValue: -32600)
  /// `-32601`: the method does not exist (JSON-RPC 2.0 §5.1).
  public static let methodNotFound = ErrorCode(rawValue: -32601)
  /// `-32602`: invalid method parameters (JSON-RPC 2.0 §5.1).
  public static let invalidParams = ErrorCode(rawValue: -32602)
  /// `-32603`: internal error (JSON-RPC 2.0 §5.1).
  public static let internalError = ErrorCode(rawValue: -32603)
  /// `-32002`: a request arrived before `initialize` (LSP 3.17 §ErrorCodes).
  public static let serverNotInitialized = ErrorCode(rawValue: -32002)
  /// `-32800`: the request was cancelled by `$/cancelRequest` (LSP 3.17 §ErrorCodes).
  public static let requestCancelled = ErrorCode(rawValue: -32800)

  /// The code in decimal, e.g. `-32602`.
  public var description: String { String(rawValue) }
}
