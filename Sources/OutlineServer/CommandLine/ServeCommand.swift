import Foundation
import JSONRPC
import OutlineModel

/// Serves JSON-RPC on stdin/stdout until `exit` or the end of input.
public enum ServeCommand {
  /// Runs the server; never returns.
  /// - Important: call once, from the main thread, before anything prints.
  public static func run(_ options: ServerOptions, widths: any ClusterWidthTable = UnicodeClusterWidths()) -> Never {
    // stdout carries protocol only: keep it aside and point fd 1 at stderr.
    let protocolFD = StandardStreams.protectStdout()
    let log = Logger(level: options.logLevel)
    let connection = Connection(
      input: 0, output: protocolFD, framing: options.framing, maxMessageBytes: options.maxMessageBytes, log: log,
      ending: .lspLifecycle)
    let server = OutlineServer(options: options, log: log, widths: widths) { status in
      connection.flush()
      exit(status)
    }
    server.sendNotification = { method, params in connection.sendNotification(method: method, params: params) }
    server.schedule = { job in connection.perform(job) }
    server.clientProcessGone = { pid in
      log.error("the client process \(pid) is gone: exiting")
      // Stop what runs now, then save on the worker once it is free.
      connection.abort()
      connection.perform {
        server.saveViewStates(all: true)
        exit(1)
      }
    }
    if let pid = options.clientProcessID { server.watchClientProcess(pid) }
    switch connection.run(handler: server) {
    case .endOfInput:
      let status = connection.performAndWait {
        server.saveViewStates(all: true)
        return server.exitStatus
      }
      exit(status)
    case .brokenFraming(let reason):
      log.error("cannot read the next message: \(reason)")
      exit(1)
    }
  }
}
