import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How ``Connection/run(handler:)`` ended.
public enum RunEnd: Sendable, Equatable {
  /// The input reached end of file (or could no longer be read); all replies were written.
  case endOfInput
  /// The framing broke (outline protocol §1: report on stderr, exit with status 1). The
  /// replies to the messages read before it were written.
  case brokenFraming(String)
}

/// A JSON-RPC 2.0 connection over two file descriptors (outline protocol §1, LSP 3.17
/// §Base Protocol).
///
/// - A reader thread does blocking `read(2)` on `input`, frames, decodes and validates
///   each body (parsed in place in the framer's buffer by one reused ``JSONParser``; the
///   worker gets a ``JSONDocument`` of its own). `$/cancelRequest {id}` is acted on
///   there, ahead of the queue: the ``CancellationToken`` of that id is marked if the
///   request is queued or running; an unknown id is ignored. `$/cancelRequest` never reaches the handler.
/// - Everything else goes, in the order received, to ONE serial worker that calls the
///   ``MessageHandler`` and writes the reply, so replies leave in the order the requests
///   came. A request already cancelled when its turn comes is answered `-32800` without
///   calling ``MessageHandler/handle(_:)`` (the handler is told, see
///   ``MessageHandler/cancelledBeforeStart(_:)``). Invalid messages are answered by the worker too, in turn.
///   A batch is handled element by element and answered with one array (input order),
///   or not at all when it holds only notifications.
/// - Writes are serialized by a lock and done synchronously: when ``sendNotification(method:params:)``
///   or a reply returns, its bytes were handed to the kernel. A failed write (the peer
///   went away) is logged once and later writes are dropped.
///
/// - Important: ``run(handler:)`` may be called once. ``flush()`` and
///   ``sendNotification(method:params:)`` may be called from any thread, including the
///   worker (from a handler).
public final class Connection: Sendable {
  /// The file descriptor messages are read from.
  public let input: Int32
  /// The file descriptor messages are written to.
  public let output: Int32
  /// How messages are delimited, in both directions.
  public let framing: Framing
  /// The largest body accepted, in bytes.
  public let maxMessageBytes: Int
  /// Where transport problems are reported (stderr).
  public let log: Logger

  /// `true` once a write failed; guards the output fd, so writes never interleave.
  private let writeLock = Mutex<Bool>(false)
  /// Requests queued or running, by id, for `$/cancelRequest`.
  private let pending = Mutex<[RequestID: CancellationToken]>([:])
  private let worker = DispatchQueue(label: "outline-server.jsonrpc.worker")
  private let started = Atomic<Bool>(false)

  /// A connection over two open file descriptors; nothing is read until ``run(handler:)``.
  ///
  /// - Parameters:
  ///   - input: the fd messages are read from (usually 0).
  ///   - output: the fd messages are written to (usually from ``StandardStreams/protectStdout()``).
  ///   - framing: ``Framing/lsp`` or ``Framing/ndjson``, both directions.
  ///   - maxMessageBytes: the largest body accepted, in bytes (`--max-message-bytes`).
  ///   - log: where transport problems are reported.
  public init(input: Int32, output: Int32, framing: Framing = .lsp, maxMessageBytes: Int = 64 << 20, log: Logger) {
    self.input = input
    self.output = output
    self.framing = framing
    self.maxMessageBytes = maxMessageBytes
    self.log = log
  }

  // MARK: Running

  /// Reads and handles messages until end of input or broken framing, then waits until
  /// the worker has drained and every reply is written.
  ///
  /// Blocks the calling thread; reading happens on a thread of its own.
  ///
  /// - Parameter handler: called on the worker, one message at a time.
  /// - Returns: why it ended; the caller picks the exit status.
  public func run(handler: some MessageHandler) -> RunEnd {
    precondition(!started.exchange(true, ordering: .relaxed), "Connection.run(handler:) called twice")
    let end = Mutex<RunEnd?>(nil)
    let done = DispatchSemaphore(value: 0)
    let reader = Thread { [self] in
      let result = readLoop(handler: handler)
      end.withLock { $0 = result }
      done.signal()
    }
    reader.name = "outline-server.jsonrpc.reader"
    reader.start()
    done.wait()
    worker.sync {}
    flush()
    return end.withLock { $0 } ?? .endOfInput
  }

  private func readLoop(handler: some MessageHandler) -> RunEnd {
    var framer = framing.makeFramer(maxMessageBytes: maxMessageBytes)
    // Each body is parsed in place in the framer's buffer, before the next push.
    let parser = JSONParser()
    let decode = { (body: PaddedBytes) in Message.decodeBody(body, parser: parser) }
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        log.error("cannot read input: \(String(cString: strerror(errno)))")
        return .endOfInput
      }
      do {
        if n == 0 {
          if let decoded = try framer.withFinalBody(decode) { dispatch(decoded, handler: handler) }
          return .endOfInput
        }
        framer.push(chunk[0..<n])
        while let decoded = try framer.withNextBody(decode) {
          dispatch(decoded, handler: handler)
        }
      } catch {
        if n == 0 {
          log.warn("\(error)")
          return .endOfInput
        }
        return .brokenFraming(error.description)
      }
    }
  }

  /// What the worker does with one message of a body.
  private enum Step: Sendable {
    case call(IncomingMessage)
    case reply(RequestID?, ResponseError)
    case replyNull(RequestID)
  }

  /// Runs on the reader: acts on the cancellations of a decoded body, queues the rest.
  private func dispatch(_ body: MessageBody, handler: some MessageHandler) {
    let steps: [Step]
    let isBatch: Bool
    switch body {
    case .single(let message):
      steps = step(for: message).map { [$0] } ?? []
      isBatch = false
    case .batch(let messages):
      steps = messages.compactMap(step(for:))
      isBatch = true
    }
    if steps.isEmpty { return }
    worker.async { [self] in
      let replies = steps.compactMap { perform($0, handler: handler) }
      if isBatch {
        if !replies.isEmpty { send(.array(replies)) }
      } else if let reply = replies.first {
        send(reply)
      }
    }
  }

  private func step(for message: Message) -> Step? {
    switch message {
    case .request(let id, let method, let params):
      if method == "$/cancelRequest" {
        cancel(params)
        return .replyNull(id)
      }
      let token = CancellationToken()
      pending.withLock { $0[id] = token }
      return .call(IncomingMessage(method: method, params: params, id: id, cancellation: token))
    case .notification(let method, let params):
      if method == "$/cancelRequest" {
        cancel(params)
        return nil
      }
      return .call(IncomingMessage(method: method, params: params, id: nil))
    case .response(let id, _):
      log.debug("ignoring a response from the client (id \(id.map(String.init(describing:)) ?? "null"))")
      return nil
    case .invalid(let id, let error):
      log.info("answering \(error.code.rawValue) to an invalid message: \(error.message)")
      return .reply(id, error)
    }
  }

  /// `$/cancelRequest {id}` (LSP 3.17 §Cancellation Support): marks the token of a queued
  /// or running request; anything else is ignored.
  private func cancel(_ params: JSONElement?) {
    guard let raw = params?["id"], let id = RequestID(raw) else {
      log.debug("ignoring $/cancelRequest without a valid id")
      return
    }
    if let token = pending.withLock({ $0[id] }) {
      token.cancel()
    } else {
      log.debug("ignoring $/cancelRequest for \(id): not queued or running")
    }
  }

  /// Runs on the worker: calls the handler (or not) and returns the reply, if any.
  private func perform(_ step: Step, handler: some MessageHandler) -> JSONValue? {
    switch step {
    case .reply(let id, let error):
      return Message.responseObject(id: id, result: .failure(error))
    case .replyNull(let id):
      return Message.responseObject(id: id, result: .success(.null))
    case .call(let message):
      guard let id = message.id else {
        do {
          _ = try handler.handle(message)
        } catch {
          log.warn("notification \(message.method) failed: \(error.message)")
        }
        return nil
      }
      defer {
        pending.withLock { table in
          if table[id] === message.cancellation { table[id] = nil }
        }
      }
      if message.cancellation.isCancelled {
        handler.cancelledBeforeStart(message)
        return Message.responseObject(id: id, result: .failure(.cancelled))
      }
      do {
        return Message.responseObject(id: id, result: .success(try handler.handle(message)))
      } catch {
        return Message.responseObject(id: id, result: .failure(error))
      }
    }
  }

  // MARK: Writing

  /// Sends a notification to the peer (JSON-RPC 2.0 §4.1).
  ///
  /// - Parameters:
  ///   - method: e.g. `$/progress`.
  ///   - params: an object or array; `nil` omits `params`.
  public func sendNotification(method: String, params: JSONValue?) {
    send(Message.notificationObject(method: method, params: params))
  }

  /// Returns once every message sent before the call has been written to the output fd.
  /// Safe from any thread, including a handler on the worker (e.g. before `exit()`).
  public func flush() {
    writeLock.withLock { _ in }
  }

  /// Frames and writes one message; serialized with every other write.
  public func send(_ message: JSONValue) {
    let bytes = framing.frame(message.encoded())
    writeLock.withLock { failed in
      if failed { return }
      bytes.withUnsafeBytes { raw in
        var offset = 0
        while offset < raw.count {
          let n = write(output, raw.baseAddress! + offset, raw.count - offset)
          if n < 0, errno == EINTR { continue }
          if n <= 0 {
            log.error("cannot write output: \(String(cString: strerror(errno)))")
            failed = true
            return
          }
          offset += n
        }
      }
    }
  }
}
