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
  private var buffer: [UInt8] = []
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
    appendCompacting(bytes, to: &buffer, start: &start, scanned: &scanned)
  }

  /// The next non-blank line, or `nil` until a newline arrives.
  ///
  /// - Returns: the line's bytes without `\n` and without a `\r` before it; blank lines are
  ///   skipped.
  /// - Throws: ``FramingError`` for a line longer than ``maxMessageBytes``, as soon as more
  ///   bytes than that are buffered without a newline. After a throw the framer is unusable.
  /// - Complexity: O(n) in the bytes buffered; bytes already searched are not searched again.
  public mutating func next() throws(FramingError) -> [UInt8]? {
    while true {
      guard let newline = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) else {
        scanned = buffer.count
        if buffer.count - start > maxMessageBytes + 1 {
          throw FramingError("line longer than --max-message-bytes \(maxMessageBytes)")
        }
        return nil
      }
      var line = buffer[start..<newline]
      start = newline + 1
      scanned = start
      if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
      if line.count > maxMessageBytes {
        throw FramingError("line of \(line.count) bytes exceeds --max-message-bytes \(maxMessageBytes)")
      }
      if Self.isBlank(line) { continue }
      return Array(line)
    }
  }

  /// Called at end of input: the last line, which had no newline.
  ///
  /// - Returns: that line (a trailing `\r` dropped), or `nil` when it is empty or blank.
  /// - Throws: ``FramingError`` when it is longer than ``maxMessageBytes``.
  public mutating func finish() throws(FramingError) -> [UInt8]? {
    var line = buffer[start...]
    start = buffer.count
    scanned = start
    if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
    if line.count > maxMessageBytes {
      throw FramingError("line of \(line.count) bytes exceeds --max-message-bytes \(maxMessageBytes)")
    }
    return Self.isBlank(line) ? nil : Array(line)
  }

  /// The bytes to write for `body`: `body` followed by `\n`. The body must hold no raw newline,
  /// which compact JSON never does.
  public func frame(_ body: [UInt8]) -> [UInt8] {
    var out = body
    out.append(UInt8(ascii: "\n"))
    return out
  }

  private static func isBlank(_ line: ArraySlice<UInt8>) -> Bool {
    line.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }
  }
}
