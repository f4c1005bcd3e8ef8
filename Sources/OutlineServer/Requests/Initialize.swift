import JSONRPC
import OutlineModel

/// `initialize` (PROTOCOL §2, LSP 3.17 §initialize): negotiates the position
/// encoding and says what the server can do.
///
/// Params (all optional): `processId` (an integer, or `null`), `clientInfo`,
/// `capabilities.general.positionEncodings`, `initializationOptions`.
/// Result: `{serverInfo: {name, version}, capabilities: {positionEncoding,
/// policies, units, methods}}`.
struct InitializeRequest: OutlineRequest {
  static let method = "initialize"

  /// The client's process: the server exits once it is gone.
  var processID: Int32?
  /// The first encoding of the client's list that the server supports, else UTF-16.
  var encoding: PositionEncoding

  init(_ p: ParamsReader) throws(ResponseError) {
    if let pid = p.value("processId") {
      guard let n = pid.intValue, n > 0, n <= Int64(Int32.max) else {
        throw p.fail("processId", "must be a process id (a positive integer) or null")
      }
      processID = Int32(n)
    }
    if p.has("clientInfo") { _ = try p.optionalObject("clientInfo") }
    encoding = .utf16
    if let capabilities = try p.optionalObject("capabilities"),
      let general = try capabilities.optionalObject("general"),
      let names = try general.optionalStrings("positionEncodings", "must be an array of strings")
    {
      // The first one the server supports, in the client's order.
      encoding = names.lazy.compactMap(PositionEncoding.init(rawValue:)).first ?? .utf16
    }
  }

  func run(on server: OutlineServer, cancellation: CancellationToken) throws(ResponseError) -> Result {
    if let processID { server.watchClientProcess(processID) }
    server.didInitialize(encoding: encoding)
    return Result(positionEncoding: encoding)
  }

  /// `{serverInfo, capabilities}`.
  struct Result: JSONWritable {
    var positionEncoding: PositionEncoding

    func write(to json: inout JSONWriter) {
      json.object { json in
        json.key("serverInfo")
        json.object { json in
          json.member("name", ServerInfo.name)
          json.member("version", ServerInfo.version)
        }
        json.key("capabilities")
        json.object { json in
          json.member("positionEncoding", positionEncoding.rawValue)
          json.member("policies", ExpansionPolicy.allCases.map(\.rawValue))
          json.member("units", LayoutUnit.allCases.map(\.rawValue))
          json.member("methods", OutlineProtocol.methodNames)
        }
      }
    }
  }
}
