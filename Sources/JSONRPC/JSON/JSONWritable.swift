/// A value that writes itself as one JSON value with a ``JSONWriter``: a typed result, params
/// of a notification, an element of an answer's array.
///
/// ```swift
/// struct SectionToggled: JSONWritable {
///   var version: Int
///   var expanded: Bool
///   var updatedGroups: [String]
///   func write(to json: inout JSONWriter) {
///     json.object { json in
///       json.member("version", version)
///       json.member("expanded", expanded)
///       json.member("updatedGroups", updatedGroups)
///     }
///   }
/// }
/// ```
///
/// The standard library's integers, `Double`, `Bool` and `String` conform, and so do
/// `Optional` (`nil` is `null`) and `Array` of conforming elements, as do ``JSONValue``,
/// ``RequestID`` and ``ResponseError``.
public protocol JSONWritable {
  /// Writes `self` as exactly one JSON value: a scalar, or one container opened and closed.
  ///
  /// - Parameter json: the writer; commas before the value are its business.
  func write(to json: inout JSONWriter)
}

extension Bool: JSONWritable {
  /// Writes `true` or `false`.
  @inlinable public func write(to json: inout JSONWriter) { json.value(self) }
}

extension Int: JSONWritable {
  /// Writes the integer in decimal.
  @inlinable public func write(to json: inout JSONWriter) { json.value(self) }
}

extension Int8: JSONWritable {
  /// Writes the integer in decimal.
  @inlinable public func write(to json: inout JSONWriter) { json.value(Int64(self)) }
}

extension Int16: JSONWritable {
  /// Writes the integer in decimal.
  @inlinable public func write(to json: inout JSONWriter) { json.value(Int64(self)) }
}

extension Int32: JSONWritable {
  /// Writes the integer in decimal.
  @inlinable public func write(to json: inout JSONWriter) { json.value(Int64(self)) }
}

extension Int64: JSONWritable {
  /// Writes the integer in decimal.
  @inlinable public func write(to json: inout JSONWriter) { json.value(self) }
}

extension UInt: JSONWritable {
  /// Writes the integer in decimal.
  @inlinable public func write(to json: inout JSONWriter) { json.value(UInt64(self)) }
}

extension UInt8: JSONWritable {
  /// Writes the integer in decimal.
  @inlinable public func write(to json: inout JSONWriter) { json.value(Int64(self)) }
}

extension UInt16: JSONWritable {
  /// Writes the integer in decimal.
  @inlinable public func write(to json: inout JSONWriter) { json.value(Int64(self)) }
}

extension UInt32: JSONWritable {
  /// Writes the integer in decimal.
  @inlinable public func write(to json: inout JSONWriter) { json.value(Int64(self)) }
}

extension UInt64: JSONWritable {
  /// Writes the integer in decimal.
  @inlinable public func write(to json: inout JSONWriter) { json.value(self) }
}

extension Double: JSONWritable {
  /// Writes the number as ``JSONWriter/value(_:)-(Double)`` does (`null` when not finite).
  @inlinable public func write(to json: inout JSONWriter) { json.value(self) }
}

extension String: JSONWritable {
  /// Writes the string quoted and escaped.
  @inlinable public func write(to json: inout JSONWriter) { json.value(self) }
}

extension Optional: JSONWritable where Wrapped: JSONWritable {
  /// Writes the wrapped value, or `null` for `nil`.
  @inlinable public func write(to json: inout JSONWriter) {
    if let value = self { value.write(to: &json) } else { json.null() }
  }
}

extension Array: JSONWritable where Element: JSONWritable {
  /// Writes `[e0,e1,…]`, the elements in order.
  ///
  /// - Complexity: O(n) plus what the elements write.
  @inlinable public func write(to json: inout JSONWriter) { json.array(self) }
}
