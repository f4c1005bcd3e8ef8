// libFuzzer harness for JSON-RPC decoding and the server's dispatch.
//
// Each input is one message body. It is decoded as the connection decodes
// it (in place in an LSP framer's buffer, with a reused JSONParser), and
// every request or notification in it is handed to a fresh
// in-process server that has been initialized and holds a small outline
// (uri `mem:a`). Every reply is encoded as it would be written. Nothing may
// trap, and no reply may be `-32603 InternalError` (a bug by the contract).
import Foundation
import JSONRPC
import OutlineServer

private let outlineText = """
  title: Fuzz
  groups:
    - id: g1
      title: Friends
      expanded: true
      rows:
        - {id: a, title: Alice, detail: Lisbon this week}
        - {id: b, title: Bob, active: false}
      groups:
        - {id: g2, title: Work, rows: [{id: c, title: Carol}]}
    - id: g3
      title: Family
      badge: "★"
      order: title
      rows: [{title: Zoe}, {title: Ann, emphasis: true}]
  """

private func makeServer() -> OutlineServer {
  var options = ServerOptions()
  options.stateDirectory = nil
  options.maxNodes = 20_000
  let server = OutlineServer(options: options, log: Logger(level: .error)) { _ in }
  // A setup that fails must stop the fuzzer: it would otherwise only ever reach -32002 or -32010.
  _ = try! server.result(for: IncomingMessage(method: "initialize", params: .object([:]), id: .int(0)))
  _ = try! server.result(
    for: IncomingMessage(
      method: "openOutline", params: .object(["uri": .string("mem:a"), "text": .string(outlineText)]),
      id: .int(0)))
  return server
}

nonisolated(unsafe) private let parser = JSONParser()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONRPC(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  var framer = LSPFramer(maxMessageBytes: 1 << 20)
  framer.push(Framing.lsp.frame(bytes))
  let messages: [Message]
  switch try! framer.withNextBody({ Message.decodeBody($0, parser: parser) })! {
  case .single(let m): messages = [m]
  case .batch(let ms): messages = ms
  }
  let server = makeServer()
  for message in messages {
    var reply = JSONWriter()
    switch message {
    case .request(let id, let method, let params):
      // A file: uri would make the harness read the disk; the end-to-end tests cover it.
      if params?["uri"]?.stringValue?.lowercased().hasPrefix("file:") == true { continue }
      do {
        let result = try server.result(for: IncomingMessage(method: method, params: params, id: id))
        Message.writeResponse(id: id, result: result, to: &reply)
      } catch {
        precondition(error.code != .internalError, "internal error for \(method): \(error.message)")
        Message.writeResponse(id: id, error: error, to: &reply)
      }
    case .notification(let method, let params):
      if params?["uri"]?.stringValue?.lowercased().hasPrefix("file:") == true { continue }
      do {
        _ = try server.result(for: IncomingMessage(method: method, params: params, id: nil))
      } catch {
        precondition(error.code != .internalError, "internal error for notification \(method): \(error.message)")
      }
      continue
    case .response:
      continue
    case .invalid(let id, let error):
      Message.writeResponse(id: id, error: error, to: &reply)
    }
    precondition((try? JSONValue.parse(reply.bytes)) != nil, "a reply that is not JSON")
  }
  return 0
}
