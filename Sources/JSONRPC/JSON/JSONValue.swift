import Foundation

/// A JSON value (RFC 8259), as carried in JSON-RPC `params`, `result`, `error.data` and `id`.
///
/// Numbers keep their kind: an integral number that fits in `Int64` is ``int(_:)``, anything
/// else is ``double(_:)``. Integers up to 2^53−1 (and well beyond, up to `Int64.max`)
/// round-trip exactly. `7.0` in the input reads as `.int(7)`, and an integral double may
/// print without a fraction: JSON does not tell them apart.
///
/// Objects are unordered; ``encoded()`` writes keys sorted, so the output is deterministic.
public enum JSONValue: Sendable, Hashable {
  /// JSON `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// An integral number that fits in `Int64` (`7.0` included).
  case int(Int64)
  /// Any other number: one with a fractional part, or an integer outside `Int64`.
  case double(Double)
  /// A string, unescaped.
  case string(String)
  /// An array, elements in order.
  case array([JSONValue])
  /// An object; unordered, a repeated key keeps the last value.
  case object([String: JSONValue])
}

// MARK: - Accessors

extension JSONValue {
  /// `true` for ``null``.
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// The value of a ``bool(_:)``, else `nil`.
  public var boolValue: Bool? {
    if case .bool(let b) = self { return b }
    return nil
  }

  /// The value of an ``int(_:)``, else `nil` (a ``double(_:)`` is not converted).
  public var intValue: Int64? {
    if case .int(let i) = self { return i }
    return nil
  }

  /// The numeric value of an ``int(_:)`` or a ``double(_:)``, else `nil`.
  public var doubleValue: Double? {
    switch self {
    case .int(let i): return Double(i)
    case .double(let d): return d
    default: return nil
    }
  }

  /// The value of a ``string(_:)``, else `nil`.
  public var stringValue: String? {
    if case .string(let s) = self { return s }
    return nil
  }

  /// The elements of an ``array(_:)``, else `nil`.
  public var arrayValue: [JSONValue]? {
    if case .array(let a) = self { return a }
    return nil
  }

  /// The members of an ``object(_:)``, else `nil`.
  public var objectValue: [String: JSONValue]? {
    if case .object(let o) = self { return o }
    return nil
  }

  /// The member `key` of an object; `nil` when absent or when `self` is not an object.
  public subscript(key: String) -> JSONValue? {
    if case .object(let o) = self { return o[key] }
    return nil
  }

  /// The element at `index` of an array; `nil` when out of range or not an array.
  public subscript(index: Int) -> JSONValue? {
    if case .array(let a) = self, a.indices.contains(index) { return a[index] }
    return nil
  }
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
  ExpressibleByDictionaryLiteral
{
  /// `nil` is JSON `null`.
  public init(nilLiteral: ()) { self = .null }
  /// A boolean literal is ``bool(_:)``.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  /// An integer literal is ``int(_:)``.
  public init(integerLiteral value: Int64) { self = .int(value) }
  /// A floating-point literal is ``double(_:)``.
  public init(floatLiteral value: Double) { self = .double(value) }
  /// A string literal is ``string(_:)``.
  public init(stringLiteral value: String) { self = .string(value) }
  /// An array literal is ``array(_:)``.
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
  /// A dictionary literal is ``object(_:)``; a repeated key keeps the last value.
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
  }
}

// MARK: - Codable

extension JSONValue: Codable {
  /// Decodes any JSON value. Used when a `JSONValue` sits inside another `Decodable` type;
  /// whole messages are read with ``parse(_:)``, which is much faster.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let s = try? container.decode(String.self) {
      self = .string(s)
    } else if let o = try? container.decode([String: JSONValue].self) {
      self = .object(o)
    } else if let i = try? container.decode(Int64.self) {
      self = .int(i)
    } else if let d = try? container.decode(Double.self) {
      self = .double(d)
    } else if let b = try? container.decode(Bool.self) {
      self = .bool(b)
    } else {
      self = .array(try container.decode([JSONValue].self))
    }
  }

  /// Encodes the value; a non-finite double (not representable in JSON) is written as `null`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let b): try container.encode(b)
    case .int(let i): try container.encode(i)
    case .double(let d):
      if d.isFinite { try container.encode(d) } else { try container.encodeNil() }
    case .string(let s): try container.encode(s)
    case .array(let a):
      var elements = encoder.unkeyedContainer()
      for v in a {
        // Scalars through the concrete overloads: the encoder's generic path
        // (a dynamic cast and a nested encoder per value) is its slowest.
        switch v {
        case .null: try elements.encodeNil()
        case .bool(let b): try elements.encode(b)
        case .int(let i): try elements.encode(i)
        case .double(let d): if d.isFinite { try elements.encode(d) } else { try elements.encodeNil() }
        case .string(let s): try elements.encode(s)
        case .array, .object: try elements.encode(v)
        }
      }
    case .object(let o):
      var members = encoder.container(keyedBy: MemberKey.self)
      for (name, v) in o {
        let key = MemberKey(name)
        switch v {
        case .null: try members.encodeNil(forKey: key)
        case .bool(let b): try members.encode(b, forKey: key)
        case .int(let i): try members.encode(i, forKey: key)
        case .double(let d):
          if d.isFinite { try members.encode(d, forKey: key) } else { try members.encodeNil(forKey: key) }
        case .string(let s): try members.encode(s, forKey: key)
        case .array, .object: try members.encode(v, forKey: key)
        }
      }
    }
  }
}

/// An object member's name as a coding key.
private struct MemberKey: CodingKey {
  let stringValue: String
  var intValue: Int? { nil }
  init(_ name: String) { stringValue = name }
  init?(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}
