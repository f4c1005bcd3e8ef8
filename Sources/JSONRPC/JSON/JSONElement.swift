#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value inside a ``JSONDocument`` (RFC 8259 §3): a cheap cursor, the document and a
/// position on its tape. Copying one copies a reference and an index; reading a scalar
/// reads one or two tape words; nothing is built until asked for (``stringValue``,
/// ``jsonValue``).
///
/// The accessors mirror ``JSONValue``'s: each returns `nil` when the element is of another
/// kind. Numbers keep the kinds of ``JSONValue``: an integral number within `Int64` is
/// ``Kind/int`` (`7.0` too), any other ``Kind/double``.
public struct JSONElement: Sendable {
  /// The document this element belongs to; it stays alive as long as the element.
  public let document: JSONDocument
  /// The index of the element's first tape word.
  let index: Int

  init(document: JSONDocument, index: Int) {
    self.document = document
    self.index = index
  }

  /// A standalone element holding `value`: the root of `JSONDocument(value)`.
  ///
  /// - Complexity: O(n) in the size of `value`.
  public init(_ value: JSONValue) {
    self = JSONDocument(value).root
  }

  /// The kinds of JSON value (RFC 8259 §3), numbers split as in ``JSONValue``.
  public enum Kind: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool
    /// An integral number within `Int64`.
    case int
    /// Any other number.
    case double
    /// A string.
    case string
    /// An array.
    case array
    /// An object.
    case object
  }

  private typealias Tape = JSONDocument.Tape

  /// What this element is.
  ///
  /// - Complexity: O(1).
  public var kind: Kind {
    switch document.type(index) {
    case Tape.null: return .null
    case Tape.true, Tape.false: return .bool
    case Tape.int: return .int
    case Tape.double: return .double
    case Tape.string: return .string
    case Tape.arrayStart: return .array
    default: return .object
    }
  }

  // MARK: Scalars
  //
  // Each reads one or two tape words: O(1).

  /// `true` for `null`.
  public var isNull: Bool { document.type(index) == Tape.null }

  /// The value of `true` or `false`, else `nil`.
  public var boolValue: Bool? {
    switch document.type(index) {
    case Tape.true: return true
    case Tape.false: return false
    default: return nil
    }
  }

  /// The value of an integral number within `Int64`, else `nil` (a ``Kind/double`` is not
  /// converted).
  public var intValue: Int64? {
    guard document.type(index) == Tape.int else { return nil }
    return Int64(bitPattern: document.value(after: index))
  }

  /// The value of any number (an integer above 2^53 rounded to the nearest double), else
  /// `nil`.
  public var doubleValue: Double? {
    switch document.type(index) {
    case Tape.int: return Double(Int64(bitPattern: document.value(after: index)))
    case Tape.double: return Double(bitPattern: document.value(after: index))
    default: return nil
    }
  }

  /// The value of a string, unescaped, else `nil`.
  ///
  /// - Complexity: O(n) in the string's length (a copy); see ``withUTF8(_:)`` for none.
  public var stringValue: String? {
    withUTF8 { String(decoding: $0, as: UTF8.self) }
  }

  /// Calls `body` with the unescaped UTF-8 bytes of a string, without copying them; `nil`
  /// (and `body` not called) when this is not a string. The bytes are valid UTF-8 and may
  /// hold U+0000; the pointer is valid only during the call.
  ///
  /// - Complexity: O(1) plus `body`.
  public func withUTF8<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R? {
    guard document.type(index) == Tape.string else { return nil }
    return try document.withStringBytes(at: index, body)
  }

  /// `true` when this is a string whose UTF-8 bytes are those of `text` (no String is
  /// made).
  ///
  /// - Complexity: O(n) in the length of `text`.
  public func isString(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { expected in withUTF8 { Self.equal($0, expected) } } ?? false
  }

  @inline(__always)
  static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    guard a.count == b.count else { return false }
    guard a.count > 0 else { return true }
    return memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0
  }

  // MARK: Arrays and objects

  /// The number of elements of an array or members of an object (a repeated name
  /// counted each time), else `nil`.
  ///
  /// - Complexity: O(1) below 2^24 − 1 elements, O(n) above.
  public var count: Int? {
    let w = document.word(index)
    let type = UInt8(truncatingIfNeeded: w >> 56)
    guard type == Tape.arrayStart || type == Tape.objectStart else { return nil }
    let count = document.storedCount(index)
    if count < Tape.countLimit { return count }
    return type == Tape.arrayStart
      ? Elements(self).reduce(0) { n, _ in n + 1 } : Members(self).reduce(0) { n, _ in n + 1 }
  }

  /// The elements of an array, in order, else `nil`.
  public var elements: Elements? {
    document.type(index) == Tape.arrayStart ? Elements(self) : nil
  }

  /// The members of an object, in input order (a repeated name appears each time), else
  /// `nil`.
  public var members: Members? {
    document.type(index) == Tape.objectStart ? Members(self) : nil
  }

  /// The value of the member named `key` of an object; `nil` when there is none or this
  /// is not an object. Names are compared by their UTF-8 bytes, unescaped (RFC 8259 §8.3);
  /// when a name is repeated the last member wins.
  ///
  /// - Complexity: O(m) in the number of members, plus the bytes of names as long as
  ///   `key`; no String is made.
  public subscript(key: String) -> JSONElement? {
    guard document.type(index) == Tape.objectStart else { return nil }
    var key = key
    return key.withUTF8 { wanted -> JSONElement? in
      let end = document.skip(index) - 1
      var found: Int?
      var i = index + 1
      while i < end {
        if document.withStringBytes(at: i, { Self.equal($0, wanted) }) { found = i + 1 }
        i = document.skip(i + 1)
      }
      return found.map { JSONElement(document: document, index: $0) }
    }
  }

  /// The element at `position` (from 0) of an array; `nil` when out of range or not an
  /// array.
  ///
  /// - Complexity: O(`position`) siblings skipped.
  public subscript(position: Int) -> JSONElement? {
    guard position >= 0, let elements else { return nil }
    var iterator = elements.makeIterator()
    for _ in 0..<position where iterator.next() == nil { return nil }
    return iterator.next()
  }

  /// The elements of an array, in order.
  public struct Elements: Sequence, Sendable {
    let array: JSONElement

    init(_ array: JSONElement) { self.array = array }

    /// The number of elements; O(1) below 2^24 − 1.
    public var count: Int { array.count ?? 0 }

    /// A lower bound of the count, for `Array(elements)`.
    public var underestimatedCount: Int { array.document.storedCount(array.index) }

    /// An iterator from the first element.
    public func makeIterator() -> Iterator {
      Iterator(document: array.document, position: array.index + 1, end: array.document.skip(array.index) - 1)
    }

    /// Steps from one element to the next, skipping nested values in O(1).
    public struct Iterator: IteratorProtocol, Sendable {
      let document: JSONDocument
      var position: Int
      let end: Int

      /// The next element, or `nil` after the last.
      public mutating func next() -> JSONElement? {
        guard position < end else { return nil }
        let element = JSONElement(document: document, index: position)
        position = document.skip(position)
        return element
      }
    }
  }

  /// One member of an object (RFC 8259 §4): a name and a value.
  public struct Member: Sendable {
    /// The name, a string element (read it with ``JSONElement/withUTF8(_:)`` or
    /// ``JSONElement/stringValue``).
    public let name: JSONElement
    /// The value.
    public let value: JSONElement

    /// The name as a `String`.
    public var key: String { name.stringValue ?? "" }
  }

  /// The members of an object, in input order.
  public struct Members: Sequence, Sendable {
    let object: JSONElement

    init(_ object: JSONElement) { self.object = object }

    /// The number of members, a repeated name counted each time; O(1) below 2^24 − 1.
    public var count: Int { object.count ?? 0 }

    /// A lower bound of the count.
    public var underestimatedCount: Int { object.document.storedCount(object.index) }

    /// An iterator from the first member.
    public func makeIterator() -> Iterator {
      Iterator(document: object.document, position: object.index + 1, end: object.document.skip(object.index) - 1)
    }

    /// Steps from one member to the next, skipping nested values in O(1).
    public struct Iterator: IteratorProtocol, Sendable {
      let document: JSONDocument
      var position: Int
      let end: Int

      /// The next member, or `nil` after the last.
      public mutating func next() -> Member? {
        guard position < end else { return nil }
        let member = Member(
          name: JSONElement(document: document, index: position),
          value: JSONElement(document: document, index: position + 1))
        position = document.skip(position + 1)
        return member
      }
    }
  }

  // MARK: Conversion

  /// The element as a ``JSONValue`` (for `data` payloads and tests); a repeated object
  /// name keeps its last value.
  ///
  /// - Complexity: O(n) in the size of the element.
  public var jsonValue: JSONValue {
    switch document.type(index) {
    case Tape.null: return .null
    case Tape.true: return .bool(true)
    case Tape.false: return .bool(false)
    case Tape.int: return .int(Int64(bitPattern: document.value(after: index)))
    case Tape.double: return .double(Double(bitPattern: document.value(after: index)))
    case Tape.string: return .string(stringValue!)
    case Tape.arrayStart:
      var array: [JSONValue] = []
      array.reserveCapacity(Elements(self).underestimatedCount)
      for element in Elements(self) { array.append(element.jsonValue) }
      return .array(array)
    default:
      var object: [String: JSONValue] = [:]
      object.reserveCapacity(Members(self).underestimatedCount)
      for member in Members(self) { object[member.key] = member.value.jsonValue }
      return .object(object)
    }
  }
}

extension JSONElement: Equatable {
  /// `true` when both hold the same JSON value (as ``jsonValue`` compares), whatever their
  /// documents.
  ///
  /// - Complexity: O(n) in the sizes of both.
  public static func == (a: JSONElement, b: JSONElement) -> Bool {
    a.jsonValue == b.jsonValue
  }
}

extension JSONElement: CustomStringConvertible {
  /// The element's compact JSON text, for logs and test failures.
  public var description: String { jsonValue.jsonText }
}
