extension JSONValue: JSONWritable {
  /// Writes the value compactly: object members sorted by name (by UTF-8 bytes, so by code
  /// point), so the output is deterministic; numbers and strings as ``JSONWriter`` writes
  /// them (a non-finite double is `null`).
  ///
  /// - Complexity: O(n) in the size of the value, plus O(k log k) to sort an object of k
  ///   members.
  public func write(to json: inout JSONWriter) {
    switch self {
    case .null: json.null()
    case .bool(let b): json.value(b)
    case .int(let i): json.value(i)
    case .double(let d): json.value(d)
    case .string(let s): json.value(s)
    case .array(let elements):
      json.beginArray()
      for element in elements { element.write(to: &json) }
      json.endArray()
    case .object(let members):
      json.beginObject()
      for (name, value) in members.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
        json.key(named: name)
        value.write(to: &json)
      }
      json.endObject()
    }
  }

  /// The compact JSON text of this value, UTF-8, written by ``write(to:)-(JSONWriter)``:
  /// keys sorted, no whitespace, `/` not escaped, U+2028 and U+2029 escaped, a non-finite
  /// double as `null`. The text never contains a raw line break, so it can be framed as one
  /// ndjson line.
  ///
  /// - Complexity: O(n) in the size of the value (plus sorting object members).
  public func encoded() -> [UInt8] {
    var json = JSONWriter()
    write(to: &json)
    return json.bytes
  }

  /// The compact JSON text of this value; see ``encoded()``.
  public var jsonText: String {
    var json = JSONWriter()
    write(to: &json)
    return json.text
  }

  /// Appends the compact JSON text of this value to `out`; see ``encoded()``.
  public func write(to out: inout [UInt8]) {
    var json = JSONWriter()
    write(to: &json)
    json.withUnsafeBytes { out.append(contentsOf: $0) }
  }
}
