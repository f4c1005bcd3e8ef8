import Foundation
import JSONRPC
import Testing

/// Parses `text` as JSON, failing the test at the caller on error.
func json(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> JSONValue {
  do {
    return try JSONValue.parse(text)
  } catch {
    Issue.record("not JSON: \(text): \(error)", sourceLocation: sourceLocation)
    return .null
  }
}

/// Pushes `input` into `framer` in chunks of `chunkSize` bytes, collecting every body.
func bodies<F: MessageFramer>(
  _ framer: inout F, _ input: [UInt8], chunkSize: Int, sourceLocation: SourceLocation = #_sourceLocation
) -> [String] {
  var out: [String] = []
  var offset = 0
  do {
    while offset < input.count {
      let end = min(offset + chunkSize, input.count)
      framer.push(input[offset..<end])
      offset = end
      while let body = try framer.next() { out.append(String(decoding: body, as: UTF8.self)) }
    }
    if let last = try framer.finish() { out.append(String(decoding: last, as: UTF8.self)) }
  } catch {
    Issue.record("unexpected framing error: \(error)", sourceLocation: sourceLocation)
  }
  return out
}

/// Expects the framer to throw a ``FramingError`` for `input` (pushed whole) whose
/// description contains `fragment`.
func expectFramingError<F: MessageFramer>(
  _ framer: F, _ input: String, containing fragment: String, sourceLocation: SourceLocation = #_sourceLocation
) {
  var framer = framer
  framer.push(Array(input.utf8))
  do {
    while try framer.next() != nil {}
    Issue.record("expected a framing error for \(input.debugDescription)", sourceLocation: sourceLocation)
  } catch {
    #expect(
      error.description.contains(fragment), "\(error.description) lacks \(fragment)", sourceLocation: sourceLocation)
  }
}

/// Expects `body` to decode to one invalid message with `code` and `id`.
func expectInvalid(
  _ body: String, code: ErrorCode, id: RequestID?, sourceLocation: SourceLocation = #_sourceLocation
) {
  guard case .single(.invalid(let gotID, let error)) = Message.decodeBody(Array(body.utf8)) else {
    Issue.record("expected an invalid message for \(body)", sourceLocation: sourceLocation)
    return
  }
  #expect(error.code == code, "\(body)", sourceLocation: sourceLocation)
  #expect(gotID == id, "\(body)", sourceLocation: sourceLocation)
}

/// Reads everything from `fd` until end of file.
func readAll(_ fd: Int32) -> [UInt8] {
  var out: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 4096)
  while true {
    let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    if n <= 0 { return out }
    out.append(contentsOf: chunk[0..<n])
  }
}

/// Writes all of `bytes` to `fd`.
func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
  var offset = 0
  while offset < bytes.count {
    let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    if n <= 0 { return }
    offset += n
  }
}

/// LSP-frames each message.
func lspFrames(_ messages: [String]) -> [UInt8] {
  messages.flatMap { Framing.lsp.frame(Array($0.utf8)) }
}

/// The bodies of a complete LSP-framed output, parsed.
func parseLSPOutput(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> [JSONValue] {
  var framer = LSPFramer(maxMessageBytes: 1 << 30)
  return bodies(&framer, bytes, chunkSize: bytes.count + 1, sourceLocation: sourceLocation).map {
    json($0, sourceLocation: sourceLocation)
  }
}

/// Reads lines from a file descriptor on a thread of its own, for waits on what was written.
final class LineReader: @unchecked Sendable {
  // @unchecked Sendable: `text` and `ended` are guarded by `lock`.
  private let lock = NSCondition()
  private var text = ""
  private var ended = false

  init(fd: Int32) {
    Thread.detachNewThread { [self] in
      var chunk = [UInt8](repeating: 0, count: 4096)
      while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        lock.lock()
        if n <= 0 {
          ended = true
        } else {
          text += String(decoding: chunk[0..<n], as: UTF8.self)
        }
        lock.broadcast()
        lock.unlock()
        if n <= 0 { return }
      }
    }
  }

  /// Waits until a line containing `fragment` was written, at most `timeout` seconds.
  func waitForLine(containing fragment: String, timeout: Double) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    lock.lock()
    defer { lock.unlock() }
    while !text.split(separator: "\n").contains(where: { $0.contains(fragment) }) {
      if ended || !lock.wait(until: deadline) { return false }
    }
    return true
  }
}
