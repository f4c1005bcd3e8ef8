import Foundation
import JSONRPC
import OutlineModel
import OutlineServer
import Synchronization

/// The outline server run in this process, exactly as the binary runs it
/// (``OutlineServer/ServeCommand/serve(_:input:output:log:lineBreakers:end:)``:
/// the real connection, framing, JSON and server), over pipes: a test of
/// server behaviour that answers in milliseconds instead of spawning a process.
///
/// The arguments are the binary's; its stderr is a pipe of its own. What the
/// process would do at its end (exit with a status) ends the conversation
/// and records the status instead.
public final class InProcessServer: TestServer, @unchecked Sendable {
  // @unchecked Sendable: the output is guarded by its own lock, `state` by its
  // mutex; the descriptors are set in init.
  // `progress`: the server's status once it ended, and whether its input was closed.
  /// How messages are delimited, both ways.
  public let framing: Framing
  private let output = ServerOutput()
  /// The write end of the server's input.
  private let toServer: Int32
  private let progress = Mutex<(status: Int32?, inputClosed: Bool)>((nil, false))
  private let ended = DispatchSemaphore(value: 0)
  /// The `XDG_STATE_HOME` of this server, unless the arguments name a `--state-dir`.
  public let stateDirectory: URL

  /// Starts a server with the binary's `arguments`; `environment` stands for the process's
  /// (`XDG_STATE_HOME` picks the state directory, a fresh one by default); `lineBreakers`
  /// measures `auto` heights (the binary's by default; a test may hold the worker in one).
  public init(
    arguments: [String] = [], framing: Framing = .lsp, environment: [String: String] = [:],
    lineBreakers: any LineBreakerSource = OutlineServer.makeLineBreakers()
  ) throws {
    Self.ignoreBrokenPipes
    self.framing = framing
    guard case .serve(var options) = try Command.parse(arguments + (framing == .ndjson ? ["--framing", "ndjson"] : []))
    else { throw UsageError("not a command line that serves: \(arguments)") }
    let state =
      environment["XDG_STATE_HOME"].map { URL(fileURLWithPath: $0) }
      ?? FileManager.default.temporaryDirectory.appendingPathComponent("outline-state-\(UUID().uuidString)")
    stateDirectory = state
    if !arguments.contains(where: { $0 == "--state-dir" || $0.hasPrefix("--state-dir=") }) {
      options.stateDirectory = state.path + "/outline-server"
    }
    var input: [Int32] = [0, 0]
    var out: [Int32] = [0, 0]
    var err: [Int32] = [0, 0]
    guard pipe(&input) == 0, pipe(&out) == 0, pipe(&err) == 0 else { throw POSIXError(.EMFILE) }
    toServer = input[1]
    output.readMessages(from: out[0], framing: framing)
    output.readErrors(from: err[0])
    let log = Logger(level: options.logLevel, fd: err[1])
    let serveOptions = options
    let (serverIn, serverOut, serverErr) = (input[0], out[1], err[1])
    Thread.detachNewThread { [self] in
      let status = ServeCommand.serve(
        serveOptions, input: serverIn, output: serverOut, log: log, lineBreakers: lineBreakers
      ) { [self] status in
        // The process would exit here: record the status and end the input.
        self.progress.withLock { $0.status = $0.status ?? status }
        self.closeInput()
      }
      progress.withLock { $0.status = $0.status ?? status }
      close(serverIn)
      close(serverOut)
      close(serverErr)
      ended.signal()
    }
  }

  deinit {
    closeInput()
    try? FileManager.default.removeItem(at: stateDirectory)
  }

  /// Writes to a pipe whose reader is gone fail with EPIPE instead of killing the tests.
  private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

  /// Writes raw bytes to the server's input.
  public func writeRaw(_ bytes: [UInt8]) {
    guard !progress.withLock({ $0.inputClosed }) else { return }
    writeAll(toServer, bytes)
  }

  /// The next message from the server, or `nil` after `timeout` seconds or at the end of its output.
  public func next(timeout: Double) -> JSONValue? { output.next(timeout: timeout) }

  /// Closes the server's input (the end of stdin).
  public func closeInput() {
    let close = progress.withLock { s -> Bool in
      defer { s.inputClosed = true }
      return !s.inputClosed
    }
    if close { Foundation.close(toServer) }
  }

  /// The exit status once the server ended, or `nil` after `timeout` seconds.
  public func waitForExit(timeout: Double) -> Int32? {
    guard ended.wait(timeout: .now() + timeout) == .success else { return nil }
    ended.signal()
    return progress.withLock { $0.status }
  }

  /// All of stderr once the server closed it, or what came within `timeout` seconds.
  public func waitForStderrEnd(timeout: Double) -> String { output.waitForStderrEnd(timeout: timeout) }

  /// What the server wrote to stderr so far; once it has ended, all of it.
  public var stderrText: String {
    if ended.wait(timeout: .now()) == .success {
      ended.signal()
      return waitForStderrEnd(timeout: 5)
    }
    return output.stderrSoFar
  }

  /// Waits until stderr holds `fragment`, at most `timeout` seconds; whether it came.
  public func waitForStderr(containing fragment: String, timeout: Double) -> Bool {
    output.waitForStderr(containing: fragment, timeout: timeout)
  }

  /// The next request id.
  public func takeID() -> Int64 { output.takeID() }

  /// A started, initialized server.
  public static func started(
    arguments: [String] = [], framing: Framing = .lsp, encoding: String? = nil
  ) throws -> InProcessServer {
    try InProcessServer(arguments: arguments, framing: framing).start(encoding: encoding)
  }
}
