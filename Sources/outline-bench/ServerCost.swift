import Foundation
import JSONRPC
import OutlineServer

/// What the server itself costs per request, in process, with no pipe and no
/// thread in between: parsing the body as the connection does (in place,
/// simdjson), the request's work, and writing the framed reply. The
/// difference between these and the end-to-end figures is the transport:
/// pipes, wake-ups, the client.
enum ServerCost {
  /// Per-request figures, ns.
  struct Result {
    var unknownMethod: Double
    var toggleSection: Double
    var visibleRows100: Double
  }

  /// A server holding a 1 MB outline open (`mem:bench`), initialized.
  static func server() -> OutlineServer {
    var options = ServerOptions()
    options.stateDirectory = nil
    let server = OutlineServer(options: options, log: Logger(level: .error)) { _ in }
    var rows = 0
    let path = NSTemporaryDirectory() + "/outline-bench-cost-\(getpid()).yaml"
    _ = OpenBench.writeFile(path, megabytes: 1, rowsOut: &rows)
    defer { unlink(path) }
    let text = try! String(contentsOfFile: path, encoding: .utf8)
    _ = handle(server, #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#)
    let open = JSONValue.object([
      "jsonrpc": "2.0", "id": 2, "method": "openOutline",
      "params": ["uri": "mem:bench", "text": .string(text)],
    ])
    _ = handle(server, String(decoding: open.encoded(), as: UTF8.self))
    return server
  }

  /// Parses `body` as the connection does, handles it, writes the framed reply; the reply's length.
  static func handle(_ server: OutlineServer, _ body: String) -> Int {
    guard case .single(.request(let id, let method, let params)) = Message.decodeBody(Array(body.utf8)) else {
      fatalError("not a request: \(body)")
    }
    var json = Framing.lsp.makeWriter()
    do {
      let result = try server.result(for: IncomingMessage(method: method, params: params, id: id))
      Message.writeResponse(id: id, result: result, to: &json)
    } catch {
      Message.writeResponse(id: id, error: error, to: &json)
    }
    return Framing.lsp.withFramedBytes(json) { $0.count }
  }

  static func measure(quick: Bool) -> Result {
    let server = server()
    let n = quick ? 200 : 3_000
    func time(_ bodies: [String]) -> Double {
      timePerOp(repeats: 5, ops: n) {
        for i in 0..<n { sink(handle(server, bodies[i % bodies.count])) }
      }
    }
    let unknown = time([#"{"jsonrpc":"2.0","id":7,"method":"noSuchMethod","params":{"uri":"mem:bench"}}"#])
    let toggle = time(
      (0..<64).map {
        #"{"jsonrpc":"2.0","id":7,"method":"toggleSection","params":{"uri":"mem:bench","section":"g\#($0 * 7)"}}"#
      })
    let rows = time(
      (0..<64).map {
        #"{"jsonrpc":"2.0","id":7,"method":"visibleRows","params":{"uri":"mem:bench","start":\#($0 * 50),"count":100}}"#
      })
    return Result(unknownMethod: unknown, toggleSection: toggle, visibleRows100: rows)
  }
}
