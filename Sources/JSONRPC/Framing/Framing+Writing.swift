/// Framing a body written by a ``JSONWriter`` where it lies, so an outgoing message is written
/// once into one buffer and handed to `write(2)` from there.
extension Framing {
  /// The room a writer keeps in front of the body for the LSP header: `Content-Length: `,
  /// up to 20 digits, `\r\n\r\n`.
  static let lspHeaderRoom = 40

  /// A writer for one message body to be framed this way. For ``lsp`` it keeps room in front
  /// of the body for the header, so framing moves no byte of the body.
  ///
  /// - Parameter capacity: bytes to allocate for the body up front; the buffer grows as needed.
  /// - Complexity: O(1).
  public func makeWriter(capacity: Int = 512) -> JSONWriter {
    JSONWriter(capacity: capacity, headroom: self == .lsp ? Self.lspHeaderRoom : 0)
  }

  /// Frames the one value written in `writer` and calls `body` with the framed bytes, valid
  /// only during the call: for ``lsp``, `Content-Length: N\r\n\r\n` (N in bytes, no
  /// `Content-Type`) then the body, as ``LSPFramer/frame(_:)`` frames it; for ``ndjson``, the
  /// body then `\n` (the writer never writes a raw line break, so the body is one line).
  ///
  /// - Parameters:
  ///   - writer: the body; from ``makeWriter(capacity:)`` the header goes into the room kept in
  ///     front of it, from another writer the body is moved once to make room.
  ///   - body: given the framed bytes.
  /// - Complexity: O(1) for a writer from ``makeWriter(capacity:)``, O(n) otherwise.
  public func withFramedBytes<R, E: Error>(
    _ writer: consuming JSONWriter, _ body: (UnsafeRawBufferPointer) throws(E) -> R
  ) throws(E) -> R {
    assert(writer.isComplete, "framing a writer that does not hold exactly one complete value")
    let start: Int
    switch self {
    case .ndjson:
      writer.reserve(1)
      writer.put(UInt8(ascii: "\n"))
      start = writer.headroom
    case .lsp:
      let length = writer.count - writer.headroom
      let digits = JSONWriter.decimalDigitCount(UInt64(length))
      let prefix: StaticString = "Content-Length: "
      let headerLength = prefix.utf8CodeUnitCount + digits + 4
      if writer.headroom < headerLength {
        // No room in front: move the body up once.
        let shift = headerLength - writer.headroom
        writer.reserve(shift)
        let bodyStart = writer.base + writer.headroom
        (bodyStart + shift).update(from: bodyStart, count: length)
        writer.count += shift
      }
      start = writer.count - length - headerLength
      let end = writer.count
      writer.count = start
      writer.put(prefix.utf8Start, prefix.utf8CodeUnitCount)
      writer.digits(UInt64(length))
      for byte in "\r\n\r\n".utf8 { writer.put(byte) }
      writer.count = end
    }
    return try body(UnsafeRawBufferPointer(start: writer.base + start, count: writer.count - start))
  }

  /// The framed bytes of the one value written in `writer`, copied into an array; see
  /// ``withFramedBytes(_:_:)``.
  ///
  /// - Complexity: O(n) in the size of the body.
  public func framedBytes(_ writer: consuming JSONWriter) -> [UInt8] {
    withFramedBytes(writer) { [UInt8]($0) }
  }
}
