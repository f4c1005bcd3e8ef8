import Foundation
import JSONRPC
import OutlineModel

/// Serves JSON-RPC on stdin/stdout until `exit` or the end of input.
public enum ServeCommand {
  /// Runs the server on stdin/stdout with `lineBreakers` measuring `auto`
  /// heights; never returns.
  /// - Important: call once, from the main thread, before anything prints.
  public static func run(
    _ options: ServerOptions, lineBreakers: any LineBreakerSource = OutlineServer.makeLineBreakers()
  ) -> Never {
    // stdout carries protocol only: keep it aside and point fd 1 at stderr.
    let protocolFD = StandardStreams.protectStdout()
    #if canImport(Glibc)
      // Big blocks (an outline's arrays, a parser's buffers) in mappings of their own, so
      // that memory given back returns to the system. glibc raises this threshold each
      // time such a block is freed, after which big blocks come from the heap and freed
      // ones stay in the process: reading a saved view state before a 50 MB open left
      // 3 MB more at the open's peak.
      // mallopt is not in Swift's Glibc module: found by name (RTLD_DEFAULT is a null handle).
      typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
      let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD in malloc.h
      if let mallopt = dlsym(nil, "mallopt") {
        _ = unsafeBitCast(mallopt, to: Mallopt.self)(mmapThreshold, 128 * 1024)
      }
    #endif
    let status = serve(
      options, input: 0, output: protocolFD, log: Logger(level: options.logLevel), lineBreakers: lineBreakers,
      end: { status in exit(status) })
    exit(status)
  }

  /// Serves one conversation over two file descriptors, as the process does
  /// on stdin/stdout: a ``JSONRPC/Connection`` with LSP's ending
  /// (``JSONRPC/Connection/Ending/lspLifecycle``) driving an ``OutlineServer``
  /// whose jobs run on the connection's worker.
  ///
  /// - Parameters:
  ///   - options: the command line's options.
  ///   - input: the descriptor messages are read from.
  ///   - output: the descriptor messages are written to.
  ///   - log: where problems are reported.
  ///   - lineBreakers: breaks texts into lines for `auto` heights, per layout.
  ///   - end: called with the status when the conversation ends before the input does
  ///     (the `exit` notification, the client's process gone): the process exits there;
  ///     a caller that goes on (a test) must stop feeding `input`.
  /// - Returns: the exit status once the input ended (0 after `shutdown`, else 1) or the
  ///   framing broke (1).
  public static func serve(
    _ options: ServerOptions, input: Int32, output: Int32, log: Logger,
    lineBreakers: any LineBreakerSource = OutlineServer.makeLineBreakers(),
    end: @escaping @Sendable (Int32) -> Void
  ) -> Int32 {
    let connection = Connection(
      input: input, output: output, framing: options.framing, maxMessageBytes: options.maxMessageBytes, log: log,
      ending: .lspLifecycle)
    let server = OutlineServer(options: options, log: log, lineBreakers: lineBreakers) { status in
      connection.flush()
      end(status)
    }
    server.sendNotification = { method, params in connection.sendNotification(method: method, params: params) }
    server.schedule = { job in connection.perform(job) }
    server.clientProcessGone = { pid in
      log.error("the client process \(pid) is gone: exiting")
      // Stop what runs now, then save on the worker once it is free.
      connection.abort()
      connection.perform {
        server.saveViewStates(all: true)
        end(1)
      }
    }
    if let pid = options.clientProcessID { server.watchClientProcess(pid) }
    switch connection.run(handler: server) {
    case .endOfInput:
      return connection.performAndWait {
        server.saveViewStates(all: true)
        return server.exitStatus
      }
    case .brokenFraming(let reason):
      log.error("cannot read the next message: \(reason)")
      return 1
    }
  }
}
