import JSONRPC

/// Reads the named params of a request, turning every missing or wrongly
/// typed field into `-32602 InvalidParams` with a message that names it
/// (`"uri" is missing`, `"start" must be a non-negative integer`).
///
/// `params` omitted or `null` reads as an empty object; an array is refused
/// (PROTOCOL §8: named params only).
struct ParamsReader {
  /// The params object, read in place on the message's tape; `nil` for none.
  let object: JSONElement?
  /// Prefix of field names in messages, e.g. `viewport.` for a nested object.
  let path: String

  init(_ params: JSONElement?, path: String = "") throws(ResponseError) {
    self.path = path
    switch params?.kind {
    case nil, .null?:
      object = nil
    case .object?:
      object = params
    default:
      let what = path.isEmpty ? "params" : "\"\(path.dropLast())\""
      throw .invalidParams("\(what) must be an object")
    }
  }

  /// Params given as a value (tests, and requests made in process).
  init(_ params: JSONValue?) throws(ResponseError) {
    try self.init(params.map(JSONElement.init))
  }

  private func name(_ key: String) -> String { "\"\(path)\(key)\"" }

  /// The value of `key`, treating `null` as absent; a repeated key gives its last value.
  /// - Complexity: O(members): the names are compared as bytes on the tape.
  func value(_ key: String) -> JSONElement? {
    guard let v = object?[key], !v.isNull else { return nil }
    return v
  }

  func has(_ key: String) -> Bool { value(key) != nil }

  func fail(_ key: String, _ what: String) -> ResponseError {
    .invalidParams("\(name(key)) \(what)")
  }

  func string(_ key: String) throws(ResponseError) -> String {
    guard let v = value(key) else { throw fail(key, "is missing") }
    guard let s = v.stringValue else { throw fail(key, "must be a string") }
    return s
  }

  /// A string's UTF-8 bytes, copied once from the message (no `String` made).
  func bytes(_ key: String) throws(ResponseError) -> [UInt8] {
    guard let v = value(key) else { throw fail(key, "is missing") }
    guard let bytes = v.withUTF8({ Array($0) }) else { throw fail(key, "must be a string") }
    return bytes
  }

  func optionalBytes(_ key: String) throws(ResponseError) -> [UInt8]? {
    guard has(key) else { return nil }
    return try bytes(key)
  }

  /// An integer from `min` to `max` that must be given.
  func int(_ key: String, min: Int = 0, max: Int64 = Int64(Int32.max) * 1024) throws(ResponseError) -> Int {
    guard let i = try optionalInt(key, min: min, max: max) else { throw fail(key, "is missing") }
    return i
  }

  /// A nested object that must be given, read with its path (`range.start.`).
  func object(_ key: String) throws(ResponseError) -> ParamsReader {
    guard let o = try optionalObject(key) else { throw fail(key, "is missing") }
    return o
  }

  func optionalString(_ key: String) throws(ResponseError) -> String? {
    guard has(key) else { return nil }
    return try string(key)
  }

  func optionalBool(_ key: String) throws(ResponseError) -> Bool? {
    guard let v = value(key) else { return nil }
    guard let b = v.boolValue else { throw fail(key, "must be true or false") }
    return b
  }

  /// An integer from `min` to `max`.
  func optionalInt(_ key: String, min: Int = 0, max: Int64 = Int64(Int32.max) * 1024) throws(ResponseError) -> Int? {
    guard let v = value(key) else { return nil }
    guard let i = v.intValue, i >= min else {
      throw fail(key, min == 0 ? "must be a non-negative integer" : "must be an integer ≥ \(min)")
    }
    guard i <= max else { throw fail(key, "must be ≤ \(max)") }
    return Int(i)
  }

  func number(_ key: String) throws(ResponseError) -> Double {
    guard let v = value(key) else { throw fail(key, "is missing") }
    guard let d = v.doubleValue, d.isFinite else { throw fail(key, "must be a number") }
    return d
  }

  func optionalNumber(_ key: String, min: Double? = nil, above: Double? = nil, max: Double? = nil)
    throws(ResponseError) -> Double?
  {
    guard has(key) else { return nil }
    let d = try number(key)
    if let max, d > max { throw fail(key, "must be ≤ \(Self.format(max))") }
    if let min, d < min { throw fail(key, "must be ≥ \(Self.format(min))") }
    if let above, d <= above { throw fail(key, "must be > \(Self.format(above))") }
    return d
  }

  func optionalEnum<E: RawRepresentable & CaseIterable>(_ key: String, _: E.Type) throws(ResponseError) -> E?
  where E.RawValue == String {
    guard let s = try optionalString(key) else { return nil }
    guard let e = E(rawValue: s) else {
      throw fail(key, "must be one of " + E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))
    }
    return e
  }

  func optionalObject(_ key: String) throws(ResponseError) -> ParamsReader? {
    guard let v = value(key) else { return nil }
    guard v.kind == .object else { throw fail(key, "must be an object") }
    return try ParamsReader(v, path: path + key + ".")
  }

  /// An array of strings, or `nil` when absent.
  func optionalStrings(_ key: String, _ what: String) throws(ResponseError) -> [String]? {
    guard let v = value(key) else { return nil }
    guard let elements = v.elements else { throw fail(key, what) }
    var result: [String] = []
    result.reserveCapacity(elements.underestimatedCount)
    for e in elements {
      guard let s = e.stringValue else { throw fail(key, what) }
      result.append(s)
    }
    return result
  }

  static func format(_ d: Double) -> String {
    d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
  }
}
