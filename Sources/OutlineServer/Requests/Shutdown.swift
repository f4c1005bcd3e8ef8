import JSONRPC
import OutlineModel

/// `shutdown` (PROTOCOL §2): saves every view state; every later request is
/// `-32600`, and `exit` ends the process with status 0. Result: `null`.
struct ShutdownRequest: OutlineRequest {
  static let method = "shutdown"

  init(_ p: ParamsReader) throws(ResponseError) {}

  func run(on server: OutlineServer, cancellation: CancellationToken) throws(ResponseError) -> NullResult {
    server.didShutdown()
    return NullResult()
  }
}
