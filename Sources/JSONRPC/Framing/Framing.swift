/// How messages are delimited on the byte stream.
public enum Framing: String, Sendable, CaseIterable {
  /// `Content-Length: N\r\n…\r\n\r\n` + N bytes (LSP 3.17 §Base Protocol). See ``LSPFramer``.
  case lsp
  /// One JSON value per line. See ``NDJSONFramer``.
  case ndjson

  /// A new, empty framer of this kind.
  ///
  /// - Parameter maxMessageBytes: the largest body accepted, in bytes.
  public func makeFramer(maxMessageBytes: Int) -> any MessageFramer {
    switch self {
    case .lsp: return LSPFramer(maxMessageBytes: maxMessageBytes)
    case .ndjson: return NDJSONFramer(maxMessageBytes: maxMessageBytes)
    }
  }
}

/// The stream cannot be resynchronised: the caller reports it on stderr and exits with
/// status 1 (outline protocol §1).
public struct FramingError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What is broken, e.g. `invalid Content-Length: "abc"`.
  public let description: String

  /// An error with the given description.
  public init(_ description: String) {
    self.description = description
  }
}

/// Splits a byte stream into message bodies and frames outgoing bodies. Does no I/O:
/// bytes are pushed in, complete bodies are pulled out.
///
/// A body is handed out in place, inside the framer's buffer, followed by at least
/// ``JSONParser/padding`` readable bytes, so that it is parsed without a copy
/// (``withNextBody(_:)``); ``next()`` copies it out instead.
public protocol MessageFramer: Sendable {
  /// Appends bytes read from the stream.
  ///
  /// - Complexity: amortised O(n) in `bytes.count`.
  mutating func push(_ bytes: some Collection<UInt8>)

  /// Calls `body` with the next complete body, in place in the framer's buffer and padded
  /// for ``JSONParser``; returns what `body` returns, or `nil` (without calling it) when
  /// more bytes are needed. The bytes are valid only during the call.
  ///
  /// - Throws: ``FramingError`` when the stream is broken beyond repair. After a throw the
  ///   framer is unusable.
  mutating func withNextBody<R>(_ body: (PaddedBytes) -> R) throws(FramingError) -> R?

  /// Called at end of input, after ``withNextBody(_:)`` returned `nil`: calls `body` with
  /// a body that the end of input completes (an ndjson line without its newline), in place
  /// and padded; `nil` when there is none.
  ///
  /// - Throws: ``FramingError`` for a truncated message.
  mutating func withFinalBody<R>(_ body: (PaddedBytes) -> R) throws(FramingError) -> R?

  /// The bytes to write for `body`.
  func frame(_ body: [UInt8]) -> [UInt8]
}

extension MessageFramer {
  /// The next complete body, copied out, or `nil` when more bytes are needed; see
  /// ``withNextBody(_:)``.
  ///
  /// - Throws: ``FramingError`` when the stream is broken beyond repair.
  public mutating func next() throws(FramingError) -> [UInt8]? {
    try withNextBody { [UInt8]($0.bytes) }
  }

  /// Called at end of input, after ``next()`` returned `nil`: a body that the end of input
  /// completes, copied out, else `nil`; see ``withFinalBody(_:)``.
  ///
  /// - Throws: ``FramingError`` for a truncated message.
  public mutating func finish() throws(FramingError) -> [UInt8]? {
    try withFinalBody { [UInt8]($0.bytes) }
  }
}

extension Framing {
  /// The bytes to write for `body` in this framing.
  public func frame(_ body: [UInt8]) -> [UInt8] {
    switch self {
    case .lsp: return LSPFramer(maxMessageBytes: 0).frame(body)
    case .ndjson: return NDJSONFramer(maxMessageBytes: 0).frame(body)
    }
  }
}

/// A framer's buffer: the bytes pushed and not yet consumed, always followed by
/// ``JSONParser/padding`` spare bytes (spaces), so that any body inside it can be parsed in
/// place. Offsets are from the start of the buffer; ``append(_:start:scanned:)`` moves them when
/// it drops the bytes consumed.
struct FramerBuffer {
  /// The bytes, then the padding.
  private var storage = [UInt8](repeating: UInt8(ascii: " "), count: JSONParser.padding)

  /// The number of bytes held, padding excluded.
  var count: Int { storage.count - JSONParser.padding }

  @inline(__always)
  subscript(offset: Int) -> UInt8 { storage[offset] }

  /// The bytes in `range`.
  subscript(range: Range<Int>) -> ArraySlice<UInt8> { storage[range] }

  /// Appends `bytes`, first dropping the bytes before `start` once they are at least half
  /// the buffer, and moving `start` and `scanned` with them.
  ///
  /// - Complexity: amortised O(n) in `bytes.count`.
  mutating func append(_ bytes: some Collection<UInt8>, start: inout Int, scanned: inout Int) {
    storage.removeLast(JSONParser.padding)
    if start > 0, start >= storage.count / 2 {
      storage.removeSubrange(0..<start)
      scanned -= start
      start = 0
    }
    storage.append(contentsOf: bytes)
    storage.append(contentsOf: repeatElement(UInt8(ascii: " "), count: JSONParser.padding))
  }

  /// The offset of the first `byte` in `from..<count`, or `nil`.
  ///
  /// - Complexity: O(n) in the bytes searched.
  func firstIndex(of byte: UInt8, from: Int) -> Int? {
    storage[from..<count].firstIndex(of: byte)
  }

  /// Calls `body` with the bytes in `range`, followed by at least the padding.
  func withPadded<R>(_ range: Range<Int>, _ body: (PaddedBytes) -> R) -> R {
    storage.withUnsafeBytes { all in
      body(PaddedBytes(unchecked: UnsafeRawBufferPointer(rebasing: all[range])))
    }
  }
}
