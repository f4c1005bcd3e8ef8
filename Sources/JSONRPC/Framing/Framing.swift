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
public protocol MessageFramer: Sendable {
  /// Appends bytes read from the stream.
  ///
  /// - Complexity: amortised O(n) in `bytes.count`.
  mutating func push(_ bytes: some Collection<UInt8>)

  /// The next complete body, or `nil` when more bytes are needed.
  ///
  /// - Throws: ``FramingError`` when the stream is broken beyond repair. After a throw the
  ///   framer is unusable.
  mutating func next() throws(FramingError) -> [UInt8]?

  /// Called at end of input, after ``next()`` returned `nil`: a body that the end of input
  /// completes (an ndjson line without its newline), else `nil`.
  ///
  /// - Throws: ``FramingError`` for a truncated message.
  mutating func finish() throws(FramingError) -> [UInt8]?

  /// The bytes to write for `body`.
  func frame(_ body: [UInt8]) -> [UInt8]
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

/// Appends `bytes` to a framer's buffer, first dropping the consumed prefix
/// `buffer[..<start]` once it is at least half the buffer, and moving the
/// `start` and `scanned` offsets with it.
/// - Complexity: amortised O(n) in `bytes.count`.
@inline(__always)
func appendCompacting(
  _ bytes: some Collection<UInt8>, to buffer: inout [UInt8], start: inout Int, scanned: inout Int
) {
  if start > 0, start >= buffer.count / 2 {
    buffer.removeSubrange(0..<start)
    scanned -= start
    start = 0
  }
  buffer.append(contentsOf: bytes)
}
