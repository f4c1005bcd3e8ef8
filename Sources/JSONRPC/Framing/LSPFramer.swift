/// The LSP base-protocol framing (LSP 3.17 §Base Protocol):
///
/// ```
/// Content-Length: 52\r\n
/// Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n
/// \r\n
/// {"jsonrpc":"2.0","id":1,"method":"initialize", ...}
/// ```
///
/// Header names are case-insensitive; unknown headers (and `Content-Type`) are ignored; a
/// header line may end in `\n` alone. `Content-Length` is checked against
/// `maxMessageBytes` as soon as the header is complete, before any of the body is
/// buffered; a body of exactly `maxMessageBytes` is accepted.
///
/// A missing, negative, non-numeric or absurd (more than 18 digits) `Content-Length`, a
/// header line without a colon, two different lengths, or a header block longer than
/// 64 KiB is a ``FramingError``.
public struct LSPFramer: MessageFramer {
  /// The longest header block accepted, in bytes.
  public static let maxHeaderBytes = 64 * 1024

  /// The largest `Content-Length` accepted, in bytes (`--max-message-bytes`).
  public let maxMessageBytes: Int
  private var buffer = FramerBuffer()
  /// Index of the first unconsumed byte in `buffer`.
  private var start = 0
  /// Declared length of the body being read; `nil` while reading headers.
  private var bodyLength: Int?
  /// Where the header search resumes, so a header split into many pushes is scanned once.
  private var scanned = 0

  /// An empty framer.
  ///
  /// - Parameter maxMessageBytes: the largest declared `Content-Length` accepted, in bytes.
  public init(maxMessageBytes: Int) {
    self.maxMessageBytes = maxMessageBytes
  }

  /// `true` when some bytes of an unfinished message are buffered.
  public var hasPartialMessage: Bool { bodyLength != nil || start < buffer.count }

  /// Appends bytes read from the stream; compacts the buffer once half of it is consumed.
  ///
  /// - Parameter bytes: the bytes, in stream order.
  /// - Complexity: amortised O(n) in `bytes.count`.
  public mutating func push(_ bytes: some Collection<UInt8>) {
    buffer.append(bytes, start: &start, scanned: &scanned)
  }

  /// Calls `body` with the next complete body, in place: exactly `Content-Length` bytes,
  /// without the header, followed by at least ``JSONParser/padding`` readable bytes (the
  /// next message's, or the buffer's spare bytes); `nil` while its header or body is
  /// incomplete.
  ///
  /// - Throws: ``FramingError`` for a header without `Content-Length`, a missing, non-numeric
  ///   or conflicting length, a length over ``maxMessageBytes``, a header line without a colon,
  ///   or a header block over ``maxHeaderBytes``. After a throw the framer is unusable.
  /// - Complexity: O(h) for a header of h bytes, plus `body`; header bytes already searched
  ///   are not searched again, and the body is not copied.
  public mutating func withNextBody<R>(_ body: (PaddedBytes) -> R) throws(FramingError) -> R? {
    if bodyLength == nil {
      guard let length = try readHeader() else { return nil }
      bodyLength = length
    }
    let length = bodyLength!
    guard buffer.count - start >= length else { return nil }
    let range = start..<start + length
    start += length
    scanned = start
    bodyLength = nil
    return buffer.withPadded(range, body)
  }

  /// Called at end of input.
  ///
  /// - Returns: always `nil`, without calling `body`: in this framing the end of input
  ///   completes no message.
  /// - Throws: ``FramingError`` when part of a header or body is buffered (a truncated message).
  public mutating func withFinalBody<R>(_ body: (PaddedBytes) -> R) throws(FramingError) -> R? {
    if hasPartialMessage {
      throw FramingError("end of input inside a message (\(buffer.count - start) bytes buffered)")
    }
    return nil
  }

  /// The bytes to write for `body`: `Content-Length: N\r\n\r\n` (N = `body.count` in bytes)
  /// followed by `body`; no `Content-Type` header.
  public func frame(_ body: [UInt8]) -> [UInt8] {
    var out = Array("Content-Length: \(body.count)\r\n\r\n".utf8)
    out.append(contentsOf: body)
    return out
  }

  /// Parses the header block if it is complete and consumes it.
  private mutating func readHeader() throws(FramingError) -> Int? {
    // Find the empty line that ends the header block: "\n\n" or "\n\r\n".
    var i = max(scanned, start)
    var end: Int?
    while i < buffer.count {
      if buffer[i] == UInt8(ascii: "\n") {
        guard i + 1 < buffer.count else { break }  // Wait for the byte that decides.
        if buffer[i + 1] == UInt8(ascii: "\n") {
          end = i + 2
          break
        }
        if buffer[i + 1] == UInt8(ascii: "\r") {
          guard i + 2 < buffer.count else { break }
          if buffer[i + 2] == UInt8(ascii: "\n") {
            end = i + 3
            break
          }
        }
      }
      i += 1
    }
    guard let end else {
      scanned = i
      if buffer.count - start > Self.maxHeaderBytes {
        throw FramingError("header longer than \(Self.maxHeaderBytes) bytes without an empty line")
      }
      return nil
    }
    if end - start > Self.maxHeaderBytes {
      throw FramingError("header longer than \(Self.maxHeaderBytes) bytes")
    }
    let length = try Self.contentLength(buffer[start..<end], maxMessageBytes: maxMessageBytes)
    start = end
    scanned = end
    return length
  }

  /// The `Content-Length` of a complete header block (its lines end in `\n` or `\r\n`; names
  /// are matched without regard to ASCII case, spaces and tabs around names and values are
  /// ignored, other headers are skipped). Read byte by byte: no String is made unless an
  /// error is reported.
  /// - Throws: a line without a colon, a value that is not 1 to 18 decimal digits, two
  ///   different lengths, none, or one over `maxMessageBytes`.
  /// - Complexity: O(header bytes).
  private static func contentLength(_ header: ArraySlice<UInt8>, maxMessageBytes: Int) throws(FramingError) -> Int {
    var length: Int?
    var lineStart = header.startIndex
    while lineStart < header.endIndex {
      let newline = header[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? header.endIndex
      var lineEnd = newline
      if lineEnd > lineStart && header[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
      let line = header[lineStart..<lineEnd]
      lineStart = newline + 1
      if line.isEmpty { continue }
      guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
        throw FramingError("header line without a colon: \(printable(line))")
      }
      guard isContentLength(trimmed(line[..<colon])) else { continue }
      let value = trimmed(line[(colon + 1)...])
      // At most 18 digits: the value fits in an Int.
      guard !value.isEmpty, value.count <= 18,
        value.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
      else {
        throw FramingError("invalid Content-Length: \(printable(line[(colon + 1)...]))")
      }
      let n = value.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
      if let length, length != n {
        throw FramingError("conflicting Content-Length headers: \(length) and \(n)")
      }
      length = n
    }
    guard let length else {
      throw FramingError("header without Content-Length: \(printable(header))")
    }
    if length > maxMessageBytes {
      throw FramingError("message of \(length) bytes exceeds --max-message-bytes \(maxMessageBytes)")
    }
    return length
  }

  /// `bytes` less the spaces and tabs at either end.
  private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    var s = bytes
    while let c = s.first, c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") { s = s.dropFirst() }
    while let c = s.last, c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") { s = s.dropLast() }
    return s
  }

  private static let contentLengthName = Array("content-length".utf8)

  /// Whether `name` is `Content-Length` in any ASCII case.
  private static func isContentLength(_ name: ArraySlice<UInt8>) -> Bool {
    guard name.count == contentLengthName.count else { return false }
    var i = name.startIndex
    for expected in contentLengthName {
      var byte = name[i]
      if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { byte += 32 }
      guard byte == expected else { return false }
      i += 1
    }
    return true
  }

  /// At most 200 bytes of `bytes`, for an error message, with control characters escaped.
  static func printable(_ bytes: some Collection<UInt8>) -> String {
    var text = String(decoding: bytes.prefix(200), as: UTF8.self).debugDescription
    if bytes.count > 200 { text += "…" }
    return text
  }
}
