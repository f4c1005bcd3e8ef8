#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes one JSON text (RFC 8259) as UTF-8 bytes into a growable buffer it owns, without
/// building a tree of values first.
///
/// Values are written in order; the writer puts the commas between array elements and object
/// members itself:
///
/// ```swift
/// var json = JSONWriter()
/// json.object { json in
///   json.member("version", 12)                  // "version":12
///   json.member("id", groupID)                  // any String, escaped
///   json.key("rows")
///   json.array(rows)                            // [Row], Row: JSONWritable
/// }
/// json.text  // {"version":12,"id":"g1","rows":[…]}
/// ```
///
/// - Strings are escaped as RFC 8259 §7 requires (`"`, `\` and U+0000–U+001F, as `\n`,
///   `\t`… or `\u00XX`), and U+2028 and U+2029 are written `\u2028` and `\u2029` too, so
///   the output never holds a raw line break of any kind: one answer is one ndjson line and
///   is valid JavaScript. Everything else, non-ASCII included, is copied as raw UTF-8; `/`
///   is not escaped. See ``value(_:)-(String)``.
/// - Numbers: integers are written in decimal; a `Double` follows ``value(_:)-(Double)``
///   (an integral value within ±2^53 without a fraction, otherwise the shortest text that
///   reads back as the same `Double`, and `null` for NaN and ±infinity).
/// - Keys known at compile time are `StaticString`s (``key(_:)``, ``member(_:_:)-(_,Int)``):
///   they are copied as they are, never scanned. A key built at run time goes through
///   ``key(named:)``, which escapes it.
///
/// The writer does not check in release builds that the calls make one well-formed value
/// (a key only inside an object and followed by one value, every container closed); a debug
/// build asserts it. Types that write themselves (``JSONWritable``) make the shape follow
/// from their declaration.
///
/// The buffer is owned by the writer and freed with it, so the writer cannot be copied; pass
/// it `inout`.
///
/// - Complexity: every call appends in amortized O(n) in the bytes it writes (the buffer
///   doubles when full); nothing written is ever moved except by that growth.
public struct JSONWriter: ~Copyable {
  /// The buffer: `headroom` reserved bytes, then the text written so far.
  @usableFromInline var base: UnsafeMutablePointer<UInt8>
  /// Bytes of `base` in use, `headroom` included.
  @usableFromInline var count: Int
  /// Bytes allocated at `base`.
  @usableFromInline var capacity: Int
  /// Bytes reserved in front of the text for a frame header (``Framing``); never written by
  /// the JSON calls.
  @usableFromInline let headroom: Int
  /// `true` when the next value or key is not the first of its container, so a comma goes
  /// first. One flag is enough: a key clears it (its value follows directly), an opening
  /// bracket clears it, and every complete value (a closing bracket included) sets it.
  @usableFromInline var needsComma = false
  #if DEBUG
    /// The shape checks of debug builds.
    @usableFromInline var shape = JSONShapeCheck()
  #endif

  /// An empty writer.
  ///
  /// - Parameter capacity: bytes to allocate up front; the buffer grows as needed.
  /// - Complexity: O(1).
  public init(capacity: Int = 512) {
    self.init(capacity: capacity, headroom: 0)
  }

  /// An empty writer that keeps `headroom` bytes free in front of the text, where
  /// ``Framing`` puts a frame header without moving the body.
  init(capacity: Int, headroom: Int) {
    let size = max(capacity, 16) + headroom
    guard let memory = malloc(size) else { fatalError("JSONWriter: cannot allocate \(size) bytes") }
    base = memory.assumingMemoryBound(to: UInt8.self)
    count = headroom
    self.capacity = size
    self.headroom = headroom
  }

  deinit {
    free(base)
  }

  // MARK: Output

  /// The number of bytes written.
  public var byteCount: Int { count - headroom }

  /// A copy of the bytes written (UTF-8).
  ///
  /// - Complexity: O(n) in ``byteCount``.
  public var bytes: [UInt8] {
    [UInt8](UnsafeBufferPointer(start: base + headroom, count: count - headroom))
  }

  /// The text written, as a `String`.
  ///
  /// - Complexity: O(n) in ``byteCount``.
  public var text: String {
    String(decoding: UnsafeBufferPointer(start: base + headroom, count: count - headroom), as: UTF8.self)
  }

  /// Calls `body` with the bytes written, without copying them; the pointer is valid only
  /// during the call.
  public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
    try body(UnsafeRawBufferPointer(start: base + headroom, count: count - headroom))
  }

  /// Forgets everything written, keeping the buffer, so the writer can write another value.
  ///
  /// - Complexity: O(1).
  public mutating func removeAll() {
    count = headroom
    needsComma = false
    #if DEBUG
      shape = JSONShapeCheck()
    #endif
  }

  // MARK: Buffer

  /// Makes room for `n` more bytes.
  @inlinable @inline(__always)
  mutating func reserve(_ n: Int) {
    if capacity - count < n { grow(n) }
  }

  /// Grows the buffer to at least `count + n` bytes, doubling it.
  @usableFromInline @inline(never)
  mutating func grow(_ n: Int) {
    let size = max(capacity * 2, count + n)
    guard let memory = realloc(base, size) else { fatalError("JSONWriter: cannot allocate \(size) bytes") }
    base = memory.assumingMemoryBound(to: UInt8.self)
    capacity = size
  }

  /// Appends one byte; room must have been reserved (checked in debug builds).
  @inlinable @inline(__always)
  mutating func put(_ byte: UInt8) {
    #if DEBUG
      precondition(count < capacity, "JSONWriter: a byte written past the room reserved")
    #endif
    base[count] = byte
    count &+= 1
  }

  /// Appends `n` bytes from `source`; room must have been reserved (checked in debug
  /// builds). Up to 16 bytes (most keys and short strings) are copied with two overlapping
  /// loads and stores, cheaper than a call to `memmove`.
  @inlinable @inline(__always)
  mutating func put(_ source: UnsafePointer<UInt8>, _ n: Int) {
    #if DEBUG
      precondition(count + n <= capacity, "JSONWriter: \(n) bytes written past the room reserved")
    #endif
    let target = UnsafeMutableRawPointer(base + count)
    let from = UnsafeRawPointer(source)
    if n >= 8, n <= 16 {
      let head = from.loadUnaligned(as: UInt64.self)
      let tail = from.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
      target.storeBytes(of: head, as: UInt64.self)
      target.storeBytes(of: tail, toByteOffset: n - 8, as: UInt64.self)
    } else if n >= 4, n < 8 {
      let head = from.loadUnaligned(as: UInt32.self)
      let tail = from.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)
      target.storeBytes(of: head, as: UInt32.self)
      target.storeBytes(of: tail, toByteOffset: n - 4, as: UInt32.self)
    } else if n < 4 {
      for i in 0..<n { base[count + i] = source[i] }
    } else {
      target.copyMemory(from: from, byteCount: n)
    }
    count &+= n
  }

  /// Reserves `n` bytes and a comma, and writes the comma if one is due.
  @inlinable @inline(__always)
  mutating func separate(reserving n: Int) {
    reserve(n + 1)
    if needsComma { put(UInt8(ascii: ",")) }
  }

  /// Starts a scalar value: checks the shape (debug builds), reserves `n` bytes and a comma,
  /// and writes the comma if one is due.
  @inlinable @inline(__always)
  mutating func scalar(reserving n: Int) {
    #if DEBUG
      shape.value()
    #endif
    separate(reserving: n)
  }

  /// Appends an ASCII literal as a whole value (`null`, `true`, `false`).
  @inlinable @inline(__always)
  mutating func literal(_ text: StaticString) {
    scalar(reserving: text.utf8CodeUnitCount)
    put(text.utf8Start, text.utf8CodeUnitCount)
    needsComma = true
  }

  // MARK: Containers

  /// Writes `{`; members follow as ``key(_:)`` and a value, or ``member(_:_:)-(_,Int)``.
  ///
  /// - Complexity: O(1).
  @inlinable
  public mutating func beginObject() {
    #if DEBUG
      shape.begin(object: true)
    #endif
    separate(reserving: 1)
    put(UInt8(ascii: "{"))
    needsComma = false
  }

  /// Writes `}`, closing the innermost object.
  ///
  /// - Complexity: O(1).
  @inlinable
  public mutating func endObject() {
    #if DEBUG
      shape.end(object: true)
    #endif
    reserve(1)
    put(UInt8(ascii: "}"))
    needsComma = true
  }

  /// Writes `[`; elements follow as values.
  ///
  /// - Complexity: O(1).
  @inlinable
  public mutating func beginArray() {
    #if DEBUG
      shape.begin(object: false)
    #endif
    separate(reserving: 1)
    put(UInt8(ascii: "["))
    needsComma = false
  }

  /// Writes `]`, closing the innermost array.
  ///
  /// - Complexity: O(1).
  @inlinable
  public mutating func endArray() {
    #if DEBUG
      shape.end(object: false)
    #endif
    reserve(1)
    put(UInt8(ascii: "]"))
    needsComma = true
  }

  /// Writes an object whose members `body` writes: `{…}`.
  ///
  /// - Complexity: O(1) plus what `body` writes.
  @inlinable
  public mutating func object<E: Error>(_ body: (inout JSONWriter) throws(E) -> Void) throws(E) {
    beginObject()
    try body(&self)
    endObject()
  }

  /// Writes an array whose elements `body` writes: `[…]`.
  ///
  /// - Complexity: O(1) plus what `body` writes.
  @inlinable
  public mutating func array<E: Error>(_ body: (inout JSONWriter) throws(E) -> Void) throws(E) {
    beginArray()
    try body(&self)
    endArray()
  }

  /// Writes an array of `elements`, in order, each written by its ``JSONWritable``
  /// conformance: `[e0,e1,…]`.
  ///
  /// - Complexity: O(n) in the elements plus what they write.
  @inlinable
  public mutating func array<S: Sequence>(_ elements: S) where S.Element: JSONWritable {
    beginArray()
    // Through the contiguous storage when there is one, so elements are not copied out.
    let done: Void? = elements.withContiguousStorageIfAvailable { buffer in
      for i in buffer.indices { buffer[i].write(to: &self) }
    }
    if done == nil {
      for element in elements { element.write(to: &self) }
    }
    endArray()
  }

  // MARK: Keys

  /// Writes an object member's name known at compile time, `"name":`, copying its bytes as
  /// they are; the member's value must follow.
  ///
  /// - Parameter name: the name, with no character that JSON escapes (`"`, `\`, U+0000–U+001F,
  ///   U+2028, U+2029); a debug build asserts it.
  /// - Complexity: O(n) in the length of `name`, one copy.
  @inlinable
  public mutating func key(_ name: StaticString) {
    #if DEBUG
      shape.key()
      assert(Self.isPlain(name), "JSONWriter: key \(name) needs escaping; use key(named:)")
    #endif
    let n = name.utf8CodeUnitCount
    separate(reserving: n + 3)
    put(UInt8(ascii: "\""))
    if name.hasPointerRepresentation {
      put(name.utf8Start, n)
    } else {
      name.withUTF8Buffer { put($0.baseAddress!, n) }
    }
    put(UInt8(ascii: "\""))
    put(UInt8(ascii: ":"))
    needsComma = false
  }

  /// Writes an object member's name built at run time, escaped as a string value is:
  /// `"name":`; the member's value must follow.
  ///
  /// - Complexity: O(n) in the UTF-8 length of `name`.
  public mutating func key(named name: String) {
    #if DEBUG
      shape.key()
    #endif
    separate(reserving: 0)
    quoted(name)
    reserve(1)
    put(UInt8(ascii: ":"))
    needsComma = false
  }

  // MARK: Scalars

  /// Writes `null`.
  ///
  /// - Complexity: O(1).
  @inlinable
  public mutating func null() {
    literal("null")
  }

  /// Writes `true` or `false`.
  ///
  /// - Complexity: O(1).
  @inlinable
  public mutating func value(_ bool: Bool) {
    if bool { literal("true") } else { literal("false") }
  }

  /// Writes a string value known at compile time, `"text"`, copying its bytes as they are.
  ///
  /// - Parameter text: a string with no character that JSON escapes (`"`, `\`,
  ///   U+0000–U+001F, U+2028, U+2029); a debug build asserts it.
  /// - Complexity: O(n) in the length of `text`, one copy.
  @inlinable
  public mutating func value(plain text: StaticString) {
    #if DEBUG
      assert(Self.isPlain(text), "JSONWriter: \(text) needs escaping; use value(_:) with a String")
    #endif
    let n = text.utf8CodeUnitCount
    scalar(reserving: n + 2)
    put(UInt8(ascii: "\""))
    if text.hasPointerRepresentation {
      put(text.utf8Start, n)
    } else {
      text.withUTF8Buffer { put($0.baseAddress!, n) }
    }
    put(UInt8(ascii: "\""))
    needsComma = true
  }

  /// Writes a value that writes itself (a typed result, an array, an optional…).
  ///
  /// - Complexity: what `value` writes.
  @inlinable
  public mutating func value<V: JSONWritable>(_ value: V) {
    value.write(to: &self)
  }

  /// Copies an already-written JSON value as it is: a fragment kept from another writer
  /// (``withUnsafeBytes(_:)``), such as a cached answer part.
  ///
  /// - Parameter json: exactly one complete JSON value as ``JSONWriter`` writes it (no raw
  ///   line break); not checked.
  /// - Complexity: O(n) in `json.count`, one copy.
  public mutating func rawValue(_ json: UnsafeRawBufferPointer) {
    scalar(reserving: json.count)
    if let source = json.baseAddress {
      put(source.assumingMemoryBound(to: UInt8.self), json.count)
    }
    needsComma = true
  }

  /// Copies already-written members of an object, `"a":1,"b":"x"` (a fragment kept from
  /// another writer: the bytes of an object written there, less its braces), into the
  /// object being written, as if each member had been written here.
  ///
  /// - Parameter members: one or more complete members as ``JSONWriter`` writes them, comma
  ///   separated, without braces; not checked.
  /// - Complexity: O(n) in `members.count`, one copy.
  public mutating func rawMembers(_ members: UnsafeRawBufferPointer) {
    guard let source = members.baseAddress, !members.isEmpty else { return }
    #if DEBUG
      shape.rawMembers()
    #endif
    separate(reserving: members.count)
    put(source.assumingMemoryBound(to: UInt8.self), members.count)
    needsComma = true
  }

  // MARK: Members

  /// Writes the member `"key":value` with an integer value.
  ///
  /// - Complexity: O(1) plus the key's length.
  @inlinable
  public mutating func member(_ key: StaticString, _ value: Int) {
    self.key(key)
    self.value(value)
  }

  /// Writes the member `"key":value` with a `Double` value (see ``value(_:)-(Double)``).
  ///
  /// - Complexity: O(1) plus the key's length.
  @inlinable
  public mutating func member(_ key: StaticString, _ value: Double) {
    self.key(key)
    self.value(value)
  }

  /// Writes the member `"key":true` or `"key":false`.
  ///
  /// - Complexity: O(1) plus the key's length.
  @inlinable
  public mutating func member(_ key: StaticString, _ value: Bool) {
    self.key(key)
    self.value(value)
  }

  /// Writes the member `"key":"value"`, the string escaped.
  ///
  /// - Complexity: O(n) in the key's and the string's UTF-8 lengths.
  @inlinable
  public mutating func member(_ key: StaticString, _ value: String) {
    self.key(key)
    self.value(value)
  }

  /// Writes the member `"key":value` with a value that writes itself; an optional that is
  /// `nil` is written `null` (see ``member(_:ifPresent:)`` to leave the member out).
  ///
  /// - Complexity: the key's length plus what `value` writes.
  @inlinable
  public mutating func member<V: JSONWritable>(_ key: StaticString, _ value: V) {
    self.key(key)
    value.write(to: &self)
  }

  /// Writes the member `"key":value` when `value` is not `nil`; writes nothing otherwise
  /// (for members a protocol marks optional, like JSON-RPC's `error.data`).
  ///
  /// - Complexity: the key's length plus what `value` writes.
  @inlinable
  public mutating func member<V: JSONWritable>(_ key: StaticString, ifPresent value: V?) {
    if let value {
      self.key(key)
      value.write(to: &self)
    }
  }

  // MARK: Debug checks

  /// `true` when `name` holds no character that JSON escapes.
  @usableFromInline
  static func isPlain(_ name: StaticString) -> Bool {
    name.withUTF8Buffer { utf8 in
      nextSpecialByte(utf8.baseAddress!, from: 0, to: utf8.count) == utf8.count
        || !utf8.indices.contains { escapeLength(utf8.baseAddress!, at: $0, count: utf8.count) != nil }
    }
  }

  /// `true` when the calls so far wrote exactly one complete value (debug builds; release
  /// builds answer `true` once anything was written).
  public var isComplete: Bool {
    #if DEBUG
      return shape.isComplete
    #else
      return count > headroom
    #endif
  }
}

#if DEBUG
  /// What a debug build checks about the order of a ``JSONWriter``'s calls: keys only in
  /// objects, each followed by exactly one value; values in objects only after a key; every
  /// container closed by its own kind; one value at the top.
  @usableFromInline
  struct JSONShapeCheck {
    /// The open containers, innermost last: `true` for an object.
    @usableFromInline var open: [Bool] = []
    /// `true` between a key and its value.
    @usableFromInline var afterKey = false
    /// `true` once a top-level value is complete.
    @usableFromInline var done = false

    @usableFromInline init() {}

    /// A value (or the start of a container) is about to be written.
    @usableFromInline mutating func value() {
      assert(!done, "JSONWriter: a second value at the top level")
      if open.last == true {
        assert(afterKey, "JSONWriter: a value in an object without a key")
      }
      afterKey = false
      if open.isEmpty { done = true }
    }

    /// Whole members are about to be copied in.
    @usableFromInline mutating func rawMembers() {
      assert(open.last == true, "JSONWriter: members outside an object")
      assert(!afterKey, "JSONWriter: members right after a key")
    }

    /// A key is about to be written.
    @usableFromInline mutating func key() {
      assert(open.last == true, "JSONWriter: a key outside an object")
      assert(!afterKey, "JSONWriter: a key right after a key")
      afterKey = true
    }

    /// A container is opened.
    @usableFromInline mutating func begin(object: Bool) {
      assert(!done, "JSONWriter: a second value at the top level")
      if open.last == true {
        assert(afterKey, "JSONWriter: a value in an object without a key")
      }
      afterKey = false
      open.append(object)
    }

    /// A container is closed.
    @usableFromInline mutating func end(object: Bool) {
      assert(open.last == object, "JSONWriter: closing \(object ? "an object" : "an array") that is not open")
      assert(!afterKey, "JSONWriter: a key without a value")
      open.removeLast()
      if open.isEmpty { done = true }
    }

    /// One complete value was written.
    @usableFromInline var isComplete: Bool { done && open.isEmpty }
  }
#endif
