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
///   ``MessageHandler`` (``MessageHandler/result(for:)``) and writes the reply, so replies
///   leave in the order the requests came. A request already cancelled when its turn comes
///   is answered `-32800` without calling the handler (the handler is told, see
///   ``MessageHandler/cancelledBeforeStart(_:)``). Invalid messages are answered by the worker too, in turn.
///   A batch is handled element by element and answered with one array (input order),
///   or not at all when it holds only notifications.
/// - Each outgoing message is written by a ``JSONWriter`` into one buffer that keeps room
///   for the frame header in front (``Framing/makeWriter(capacity:)``), so it leaves with
///   one `write(2)` and no copy; the result of a reply is written by its ``JSONWritable``
///   conformance, with no ``JSONValue`` built for the envelope.
/// - Writes are serialized by a lock and done synchronously: when ``sendNotification(method:params:)``
///   or a reply returns, its bytes were handed to the kernel. A failed write (the peer
///   went away) is logged once and later writes are dropped.
/// - Ending: see ``Ending``. With ``Ending/drain`` every message read is answered; with
///   ``Ending/lspLifecycle`` an `exit` or an end of input without a `shutdown` request
///   before it aborts the connection on the reader (see ``abort()``).
///
/// - Important: ``run(handler:)`` may be called once. ``flush()`` and
///   ``sendNotification(method:params:)`` may be called from any thread, including the
///   worker (from a handler).
public final class Connection: Sendable {
  /// What the end of the conversation does to the messages still queued or running.
  public enum Ending: Sendable {
    /// Plain JSON-RPC: every message read before the end of input is handled and answered.
    case drain
    /// LSP 3.17 §Lifecycle: an `exit` notification or the end of input that comes after a
    /// `shutdown` request is orderly (every message before it is answered); without a
    /// `shutdown` before it, the peer is leaving abruptly and the connection is aborted as
    /// soon as the reader sees it (``abort()``): a long request under way stops instead of
    /// delaying the end, and nothing more is written. The `exit` notification itself
    /// still reaches the handler, in turn. Nothing after an `exit` is read.
    case lspLifecycle
  }

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
  /// What the end of the conversation does; see ``Ending``.
  public let ending: Ending

  /// `true` once a write failed; guards the output fd, so writes never interleave.
  private let writeLock = Mutex<Bool>(false)
  /// Requests queued or running, by id, for `$/cancelRequest`.
  private let pending = Mutex<[RequestID: CancellationToken]>([:])
  private let worker = SerialWorker(name: "outline-server.jsonrpc.worker")
  private let started = Atomic<Bool>(false)
  /// Set by ``abort()``: no more writes; every request is cancelled.
  private let aborted = Atomic<Bool>(false)

  /// A connection over two open file descriptors; nothing is read until ``run(handler:)``.
  ///
  /// - Parameters:
  ///   - input: the fd messages are read from (usually 0).
  ///   - output: the fd messages are written to (usually from ``StandardStreams/protectStdout()``).
  ///   - framing: ``Framing/lsp`` or ``Framing/ndjson``, both directions.
  ///   - maxMessageBytes: the largest body accepted, in bytes (`--max-message-bytes`).
  ///   - log: where transport problems are reported.
  ///   - ending: ``Ending/drain`` (default) or ``Ending/lspLifecycle``.
  public init(
    input: Int32, output: Int32, framing: Framing = .lsp, maxMessageBytes: Int = 64 << 20, log: Logger,
    ending: Ending = .drain
  ) {
    self.input = input
    self.output = output
    self.framing = framing
    self.maxMessageBytes = maxMessageBytes
    self.log = log
    self.ending = ending
  }

  deinit {
    worker.stop()
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
    var lifecycle = Lifecycle()
    while true {
      let n = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        log.error("cannot read input: \(String(cString: strerror(errno)))")
        if ending == .lspLifecycle && !lifecycle.shutdownSeen { abort() }
        return .endOfInput
      }
      do {
        if n == 0 {
          if let decoded = try framer.withFinalBody(decode) {
            dispatch(decoded, handler: handler, lifecycle: &lifecycle)
          }
          if ending == .lspLifecycle && !lifecycle.shutdownSeen && !lifecycle.exitSeen {
            log.info(
              "the input ended without shutdown: stopping what is under way, answering nothing more "
                + "(send shutdown, then exit, to have every request answered)")
            abort()
          }
          log.debug("end of input: \(isAborted ? "aborted" : "waiting for the replies to what was read")")
          return .endOfInput
        }
        framer.push(chunk[0..<n])
        while let decoded = try framer.withNextBody(decode) {
          dispatch(decoded, handler: handler, lifecycle: &lifecycle)
          if ending == .lspLifecycle && lifecycle.exitSeen { return .endOfInput }
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

  /// What the reader has seen of the LSP lifecycle messages (LSP 3.17 §Lifecycle).
  private struct Lifecycle {
    /// A `shutdown` request was read: the end that follows is orderly.
    var shutdownSeen = false
    /// An `exit` notification was read: nothing after it is read.
    var exitSeen = false
  }

  /// Runs on the reader: acts on the cancellations of a decoded body and on
  /// an abrupt `exit`, queues the rest.
  private func dispatch(_ body: MessageBody, handler: some MessageHandler, lifecycle: inout Lifecycle) {
    switch body {
    case .single(let message):
      note(message, in: &lifecycle)
      dispatchSingle(message, handler: handler)
    case .batch(let messages):
      for message in messages { note(message, in: &lifecycle) }
      let steps = messages.compactMap(step(for:))
      if steps.isEmpty { return }
      steps.forEach(register)
      let quick = steps.allSatisfy { isQuick($0, handler) }
      let job: @Sendable () -> Void = { [self] in
        var json = framing.makeWriter()
        json.beginArray()
        var answered = false
        for step in steps {
          if perform(step, handler: handler, into: &json) { answered = true }
        }
        json.endArray()
        if answered { writeMessage(json) }
      }
      if quick { worker.runOrQueue(job) } else { worker.async(job) }
    }
  }

  /// Acts on an `exit` (or notes a `shutdown`) read under ``Ending/lspLifecycle``.
  private func note(_ message: Message, in lifecycle: inout Lifecycle) {
    guard ending == .lspLifecycle else { return }
    switch message {
    case .request(_, "shutdown", _): lifecycle.shutdownSeen = true
    case .notification("exit", _):
      if !lifecycle.exitSeen && !lifecycle.shutdownSeen {
        log.info("exit without shutdown: stopping what is under way")
        abort()
      }
      lifecycle.exitSeen = true
    default: break
    }
  }

  /// One message that is not in a batch. A quick one read while the worker is
  /// idle is handled at once on the reader, in the worker's role, and a
  /// request's token is then left out of the table of pending requests: no
  /// `$/cancelRequest` can be read while it runs, since the reader runs it.
  /// Anything else is registered and queued.
  private func dispatchSingle(_ message: Message, handler: some MessageHandler) {
    guard let step = step(for: message) else { return }
    if isQuick(step, handler), worker.runIfIdle({ performAndWrite(step, handler: handler, registered: false) }) {
      return
    }
    register(step)
    worker.async { [self] in performAndWrite(step, handler: handler) }
  }

  /// Whether `step` may run on the reader: a call the handler finds quick
  /// (``MessageHandler/isQuick(_:)``), or an answer the connection writes itself.
  private func isQuick(_ step: Step, _ handler: some MessageHandler) -> Bool {
    if case .call(let message) = step { return handler.isQuick(message) }
    return true
  }

  /// Puts a request's token in the table of pending requests, for `$/cancelRequest`
  /// and ``abort()``; marks it at once when the connection is already aborted.
  private func register(_ step: Step) {
    guard case .call(let message) = step, let id = message.id else { return }
    pending.withLock { $0[id] = message.cancellation }
    // After the table: either abort() finds the token there, or this sees its flag.
    if isAborted { message.cancellation.cancel() }
  }

  /// Performs one step and writes its reply, if any.
  private func performAndWrite(_ step: Step, handler: some MessageHandler, registered: Bool = true) {
    var json = framing.makeWriter()
    if perform(step, handler: handler, into: &json, registered: registered) { writeMessage(json) }
  }

  /// What the worker does with `message`, acting on a `$/cancelRequest` at once; a
  /// request's token is registered by the caller (``register(_:)``) once it knows the
  /// request will be queued.
  private func step(for message: Message) -> Step? {
    switch message {
    case .request(let id, let method, let params):
      if method == "$/cancelRequest" {
        cancel(params)
        return .replyNull(id)
      }
      return .call(IncomingMessage(method: method, params: params, id: id))
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

  /// Runs on the worker: calls the handler (or not) and writes the reply, if any, into `json`.
  ///
  /// - Returns: `true` when a reply was written.
  /// - Parameter registered: whether the request's token is in the table of pending
  ///   requests, to be taken out once it is answered.
  private func perform(
    _ step: Step, handler: some MessageHandler, into json: inout JSONWriter, registered: Bool = true
  ) -> Bool {
    switch step {
    case .reply(let id, let error):
      Message.writeResponse(id: id, error: error, to: &json)
      return true
    case .replyNull(let id):
      Message.writeResponse(id: id, result: JSONValue.null, to: &json)
      return true
    case .call(let message):
      guard let id = message.id else {
        do {
          _ = try handler.result(for: message)
        } catch {
          log.warn("notification \(message.method) failed: \(error.message)")
        }
        return false
      }
      defer {
        if registered {
          pending.withLock { table in
            if table[id] === message.cancellation { table[id] = nil }
          }
        }
      }
      if message.cancellation.isCancelled {
        handler.cancelledBeforeStart(message)
        Message.writeResponse(id: id, error: .cancelled, to: &json)
        return true
      }
      do {
        let result = try handler.result(for: message)
        Message.writeResponse(id: id, result: result, to: &json)
      } catch {
        Message.writeResponse(id: id, error: error, to: &json)
      }
      return true
    }
  }

  /// Ends the conversation at once: every request queued or running is
  /// cancelled (a long one stops at its next check, answering nothing) and
  /// nothing more is written, replies and notifications alike. Used when the
  /// peer leaves without `shutdown` (an `exit` or the end of input) or when it
  /// is known to be gone (its process ended). The handler still gets the
  /// messages already queued, in turn, with their requests cancelled.
  ///
  /// Safe from any thread; idempotent.
  public func abort() {
    aborted.store(true, ordering: .sequentiallyConsistent)
    pending.withLock { table in
      for token in table.values { token.cancel() }
    }
  }

  /// Runs `job` on the worker, after every message and job queued before it: the way
  /// work that starts elsewhere (a timer, a file watcher) reaches state the handler owns,
  /// so that the handler stays its only owner and what the job sends leaves in turn with
  /// the replies.
  ///
  /// Safe from any thread; returns at once.
  public func perform(_ job: @escaping @Sendable () -> Void) {
    worker.async(job)
  }

  /// Runs `job` on the worker, after everything queued before it, waits for it, and
  /// returns what it returned.
  ///
  /// - Important: never call it from a job or a handler (the worker would wait for itself).
  public func performAndWait<T: Sendable>(_ job: @escaping @Sendable () -> T) -> T {
    worker.sync(job)
  }

  /// `true` once ``abort()`` was called.
  public var isAborted: Bool { aborted.load(ordering: .sequentiallyConsistent) }

  // MARK: Writing

  /// Sends a notification to the peer (JSON-RPC 2.0 §4.1).
  ///
  /// - Parameters:
  ///   - method: e.g. `$/progress`.
  ///   - params: an object or array; `nil` omits `params`.
  public func sendNotification(method: String, params: JSONValue?) {
    var json = framing.makeWriter()
    if let params {
      Message.writeNotification(method: method, params: params, to: &json)
    } else {
      Message.writeNotification(method: method, to: &json)
    }
    writeMessage(json)
  }

  /// Sends a notification whose params write themselves (JSON-RPC 2.0 §4.1), written
  /// straight into the outgoing bytes.
  ///
  /// - Parameters:
  ///   - method: e.g. `outlineChanged`.
  ///   - params: an object or an array, e.g. a typed params struct.
  /// - Complexity: O(n) in the size of the message; one buffer, one `write(2)`.
  public func sendNotification<Params: JSONWritable>(method: String, params: Params) {
    var json = framing.makeWriter()
    Message.writeNotification(method: method, params: params, to: &json)
    writeMessage(json)
  }

  /// Returns once every message sent before the call has been written to the output fd.
  /// Safe from any thread, including a handler on the worker (e.g. before `exit()`).
  public func flush() {
    writeLock.withLock { _ in }
  }

  /// Frames and writes one message; serialized with every other write.
  public func send(_ message: JSONValue) {
    var json = framing.makeWriter()
    message.write(to: &json)
    writeMessage(json)
  }

  /// Frames the message in `json` where it lies and writes it under the lock, so writes
  /// never interleave; after a failed write (the peer went away), logs once and drops the
  /// rest. Nothing is written once the connection is aborted.
  private func writeMessage(_ json: consuming JSONWriter) {
    if isAborted { return }
    framing.withFramedBytes(json) { bytes in
      writeLock.withLock { failed in
        if failed || isAborted { return }
        var offset = 0
        while offset < bytes.count {
          let n = write(output, bytes.baseAddress! + offset, bytes.count - offset)
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
