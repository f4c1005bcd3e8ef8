/// Newline-delimited JSON framing: one JSON value per line, for shells and `jq`
/// (outline protocol §1, `--framing ndjson`).
///
/// A line ends at `\n`; a `\r` before it is dropped; lines of only spaces, tabs or `\r` are
/// ignored. A line longer than `maxMessageBytes` (not counting its line ending) is a
/// ``FramingError`` as soon as that many bytes are buffered without a newline. At end of
/// input, a last line without a newline is still a message.
public struct NDJSONFramer: MessageFramer {
  /// The longest line accepted, in bytes, not counting its line ending (`--max-message-bytes`).
  public let maxMessageBytes: Int
  private var buffer = FramerBuffer()
  /// Index of the first unconsumed byte in `buffer`.
  private var start = 0
  /// Where the newline search resumes.
  private var scanned = 0

  /// An empty framer.
  ///
  /// - Parameter maxMessageBytes: the longest line accepted, in bytes.
  public init(maxMessageBytes: Int) {
    self.maxMessageBytes = maxMessageBytes
  }

  /// Appends bytes read from the stream; compacts the buffer once half of it is consumed.
  ///
  /// - Parameter bytes: the bytes, in stream order.
  /// - Complexity: amortised O(n) in `bytes.count`.
  public mutating func push(_ bytes: some Collection<UInt8>) {
    buffer.append(bytes, start: &start, scanned: &scanned)
  }

  /// Calls `body` with the next non-blank line, in place: its bytes without `\n` and
  /// without a `\r` before it, followed by at least ``JSONParser/padding`` readable bytes;
  /// `nil` until a newline arrives. Blank lines are skipped.
  ///
  /// - Throws: ``FramingError`` for a line longer than ``maxMessageBytes``, as soon as more
  ///   bytes than that are buffered without a newline. After a throw the framer is unusable.
  /// - Complexity: O(n) in the bytes buffered, plus `body`; bytes already searched are not
  ///   searched again, and the line is not copied.
  public mutating func withNextBody<R>(_ body: (PaddedBytes) -> R) throws(FramingError) -> R? {
    while true {
      guard let newline = buffer.firstIndex(of: UInt8(ascii: "\n"), from: scanned) else {
        scanned = buffer.count
        if buffer.count - start > maxMessageBytes + 1 {
          throw FramingError("line longer than --max-message-bytes \(maxMessageBytes)")
        }
        return nil
      }
      var line = start..<newline
      start = newline + 1
      scanned = start
      if !line.isEmpty, buffer[line.upperBound - 1] == UInt8(ascii: "\r") {
        line = line.lowerBound..<line.upperBound - 1
      }
      if line.count > maxMessageBytes {
        throw FramingError("line of \(line.count) bytes exceeds --max-message-bytes \(maxMessageBytes)")
      }
      if isBlank(line) { continue }
      return buffer.withPadded(line, body)
    }
  }

  /// Called at end of input: calls `body` with the last line, which had no newline, in
  /// place and padded (a trailing `\r` dropped).
  ///
  /// - Returns: what `body` returns, or `nil` (without calling it) when the line is empty
  ///   or blank.
  /// - Throws: ``FramingError`` when it is longer than ``maxMessageBytes``.
  public mutating func withFinalBody<R>(_ body: (PaddedBytes) -> R) throws(FramingError) -> R? {
    var line = start..<buffer.count
    start = buffer.count
    scanned = start
    if !line.isEmpty, buffer[line.upperBound - 1] == UInt8(ascii: "\r") { line = line.lowerBound..<line.upperBound - 1 }
    if line.count > maxMessageBytes {
      throw FramingError("line of \(line.count) bytes exceeds --max-message-bytes \(maxMessageBytes)")
    }
    return isBlank(line) ? nil : buffer.withPadded(line, body)
  }

  /// The bytes to write for `body`: `body` followed by `\n`. The body must hold no raw newline,
  /// which compact JSON never does.
  public func frame(_ body: [UInt8]) -> [UInt8] {
    var out = body
    out.append(UInt8(ascii: "\n"))
    return out
  }

  private func isBlank(_ line: Range<Int>) -> Bool {
    buffer[line].allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }
  }
}
