import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A JSON-RPC client over a child process's stdin/stdout with LSP framing. It
/// does not parse JSON: a message whose body has no `"method"` key is a
/// response; requests and notifications from the server are skipped.
final class LSPClient: @unchecked Sendable {
  let process: Process
  let input: Int32
  let output: Int32
  private var buffer: [UInt8] = []
  private var start = 0

  init(executable: String, arguments: [String] = []) throws {
    let stdin = Pipe()
    let stdout = Pipe()
    process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = FileHandle.nullDevice
    try process.run()
    input = stdin.fileHandleForWriting.fileDescriptor
    output = stdout.fileHandleForReading.fileDescriptor
    buffer.reserveCapacity(1 << 20)
    // Keep the pipes (and so their fds) alive as long as the client.
    pipes = [stdin, stdout]
  }
  private var pipes: [Pipe] = []

  var pid: Int32 { process.processIdentifier }

  static func frame(_ body: String) -> [UInt8] {
    let b = Array(body.utf8)
    return Array("Content-Length: \(b.count)\r\n\r\n".utf8) + b
  }

  func write(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { raw in
      var off = 0
      while off < raw.count {
        let n = Glibc.write(input, raw.baseAddress! + off, raw.count - off)
        if n < 0, errno == EINTR { continue }
        if n <= 0 { return }
        off += n
      }
    }
  }

  func send(_ body: String) { write(Self.frame(body)) }

  /// Reads what the server wrote into `buffer` (one `read`), dropping what was consumed.
  /// The client's own cost is part of every latency measured, the floor's too: no
  /// allocation and no String per message.
  private func fill() -> Bool {
    if start > 0 && start == buffer.count {
      buffer.removeAll(keepingCapacity: true)
      start = 0
    } else if start > 1 << 20 {
      buffer.removeFirst(start)
      start = 0
    }
    let n = chunk.withUnsafeMutableBytes { Glibc.read(output, $0.baseAddress, $0.count) }
    if n <= 0 { return false }
    chunk.withUnsafeBufferPointer { buffer.append(contentsOf: $0[0..<n]) }
    return true
  }
  private var chunk = [UInt8](repeating: 0, count: 256 * 1024)

  /// The next message body, or `nil` at end of output.
  func readMessage() -> ArraySlice<UInt8>? {
    while true {
      if let (bodyStart, length) = header(), buffer.count - bodyStart >= length {
        start = bodyStart + length
        return buffer[bodyStart..<(bodyStart + length)]
      }
      if !fill() { return nil }
    }
  }

  private static let contentLength = Array("content-length:".utf8)

  /// The body's start and length once a whole header block is in the buffer.
  private func header() -> (Int, Int)? {
    var i = start
    let n = buffer.count
    while i + 3 < n {
      if buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 {
        // The server writes one header, `Content-Length: N`.
        let k = Self.contentLength
        guard i - start > k.count,
          zip(buffer[start..<(start + k.count)], k).allSatisfy({ $0 | 0x20 == $1 | 0x20 })
        else { return nil }
        var length = 0
        for b in buffer[(start + k.count)..<i] where b >= 0x30 && b <= 0x39 { length = length * 10 + Int(b - 0x30) }
        return (i + 4, length)
      }
      i += 1
    }
    return nil
  }

  private static let methodKey = Array("\"method\"".utf8)

  static func isResponse(_ body: ArraySlice<UInt8>) -> Bool {
    // Responses carry no "method"; look only at the first bytes and the last
    // (a key of the envelope), so big results are not scanned.
    let k = methodKey
    func has(_ s: ArraySlice<UInt8>) -> Bool {
      var i = s.startIndex
      while i + k.count <= s.endIndex {
        if s[i] == k[0] && s[i..<(i + k.count)].elementsEqual(k) { return true }
        i += 1
      }
      return false
    }
    return !has(body.prefix(64)) && !has(body.suffix(64))
  }

  /// The next response body (skipping the server's notifications and requests).
  func readResponse() -> ArraySlice<UInt8>? {
    while let m = readMessage() {
      if Self.isResponse(m) { return m }
    }
    return nil
  }

  /// Sends a request and waits for its answer.
  @discardableResult
  func call(_ body: String) -> String? {
    send(body)
    return readResponse().map { String(decoding: $0, as: UTF8.self) }
  }

  /// Reads and drops the server's output until it closes (the process ended).
  func readUntilEnd() {
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = chunk.withUnsafeMutableBytes { Glibc.read(output, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { return }
    }
  }

  /// Closes the server's stdin, without waiting.
  func closeInput() {
    _ = try? pipes[0].fileHandleForWriting.close()
  }

  func close() {
    _ = try? pipes[0].fileHandleForWriting.close()
    let deadline = Date().addingTimeInterval(2)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
  }
}
