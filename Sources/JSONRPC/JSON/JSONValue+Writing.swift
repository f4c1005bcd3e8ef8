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
      for (name, value) in members.sorted(by: { Self.precedes($0.key, $1.key) }) {
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

  /// `true` when `a` sorts before `b` by UTF-8 bytes, so by code point (not by `String`'s
  /// `<`, which compares canonical equivalents as equal).
  ///
  /// - Complexity: O(n) in the length of the common prefix.
  static func precedes(_ a: String, _ b: String) -> Bool {
    let compared = a.utf8.withContiguousStorageIfAvailable { x in
      b.utf8.withContiguousStorageIfAvailable { y in
        for i in 0..<min(x.count, y.count) where x[i] != y[i] { return x[i] < y[i] }
        return x.count < y.count
      }
    }
    return (compared ?? nil) ?? a.utf8.lexicographicallyPrecedes(b.utf8)
  }
}
