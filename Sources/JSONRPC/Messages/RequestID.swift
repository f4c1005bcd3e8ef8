/// The `id` of a JSON-RPC request (JSON-RPC 2.0 §4; LSP 3.17 `integer | string`).
///
/// Echoed exactly, type included: `7` and `"7"` are different ids.
public enum RequestID: Sendable, Hashable, CustomStringConvertible {
  /// An integer id, echoed exactly (PROTOCOL §8 pins integers up to 2^53−1).
  case int(Int64)
  /// A string id, echoed as written.
  case string(String)

  /// The id as it appears on the wire.
  public var jsonValue: JSONValue {
    switch self {
    case .int(let i): return .int(i)
    case .string(let s): return .string(s)
    }
  }

  /// Reads an id: an integer or a string. `null`, a fraction, a bool, an array or an object
  /// is not a valid id (the caller answers `-32600`).
  public init?(_ value: JSONValue) {
    switch value {
    case .int(let i): self = .int(i)
    case .string(let s): self = .string(s)
    default: return nil
    }
  }

  /// Reads an id from a parsed body: an integer or a string; see ``init(_:)-(JSONValue)``.
  public init?(_ element: JSONElement) {
    switch element.kind {
    case .int: self = .int(element.intValue!)
    case .string: self = .string(element.stringValue!)
    default: return nil
    }
  }

  /// The id as it would be written in JSON: `7` or `"7"`, for logs.
  public var description: String {
    switch self {
    case .int(let i): return String(i)
    case .string(let s): return "\"\(s)\""
    }
  }
}

extension RequestID: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
  /// An integer id from a literal: `let id: RequestID = 7`.
  public init(integerLiteral value: Int64) { self = .int(value) }
  /// A string id from a literal: `let id: RequestID = "7"`.
  public init(stringLiteral value: String) { self = .string(value) }
}

extension RequestID: JSONWritable {
  /// Writes the id as it came, type included: `7` or `"7"`.
  public func write(to json: inout JSONWriter) {
    switch self {
    case .int(let i): json.value(i)
    case .string(let s): json.value(s)
    }
  }
}
