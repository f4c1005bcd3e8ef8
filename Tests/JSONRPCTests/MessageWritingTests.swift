import JSONRPC
import Testing

/// A typed result, as a handler with typed results returns it.
struct SectionToggled: JSONWritable, Equatable {
  var version: Int
  var id: String
  var expanded: Bool
  var updatedGroups: [String]
  var scrollTop: Double?

  func write(to json: inout JSONWriter) {
    json.object { json in
      json.member("version", version)
      json.member("id", id)
      json.member("expanded", expanded)
      json.member("updatedGroups", updatedGroups)
      json.member("scrollTop", ifPresent: scrollTop)
    }
  }
}

/// The text a message-writing call produces.
private func written(_ write: (inout JSONWriter) -> Void) -> String {
  var json = JSONWriter()
  write(&json)
  return json.text
}

@Suite("Writing messages")
struct MessageWritingTests {
  @Test func responsesWithTypedResults() {
    let result = SectionToggled(version: 3, id: "g\"1", expanded: true, updatedGroups: ["g1", "g2"], scrollTop: 1.5)
    #expect(
      written { Message.writeResponse(id: 7, result: result, to: &$0) }
        == #"{"id":7,"jsonrpc":"2.0","result":{"version":3,"id":"g\"1","expanded":true,"updatedGroups":["g1","g2"],"scrollTop":1.5}}"#
    )
    #expect(
      written { Message.writeResponse(id: "7", result: [1, 2], to: &$0) }
        == #"{"id":"7","jsonrpc":"2.0","result":[1,2]}"#)
    #expect(
      written { Message.writeResponse(id: nil, result: JSONValue.null, to: &$0) }
        == #"{"id":null,"jsonrpc":"2.0","result":null}"#)
  }

  @Test func errorResponses() {
    #expect(
      written { Message.writeResponse(id: 9_007_199_254_740_991, error: .methodNotFound("x/y"), to: &$0) }
        == #"{"error":{"code":-32601,"message":"method not found: x/y"},"id":9007199254740991,"jsonrpc":"2.0"}"#)
    let withData = ResponseError(code: ErrorCode(rawValue: -32011), message: "bad \u{2028}", data: ["line": 3])
    #expect(
      written { Message.writeResponse(id: nil, error: withData, to: &$0) }
        == #"{"error":{"code":-32011,"data":{"line":3},"message":"bad \u2028"},"id":null,"jsonrpc":"2.0"}"#)
  }

  @Test func notificationsAndRequests() {
    #expect(
      written { Message.writeNotification(method: "$/progress", params: ["token": 1] as JSONValue, to: &$0) }
        == #"{"jsonrpc":"2.0","method":"$/progress","params":{"token":1}}"#)
    #expect(written { Message.writeNotification(method: "exit", to: &$0) } == #"{"jsonrpc":"2.0","method":"exit"}"#)
    #expect(
      written { Message.writeRequest(id: 4, method: "visibleRows", params: ["start": 0] as JSONValue, to: &$0) }
        == #"{"id":4,"jsonrpc":"2.0","method":"visibleRows","params":{"start":0}}"#)
    #expect(
      written { Message.writeRequest(id: "a", method: "shutdown", to: &$0) }
        == #"{"id":"a","jsonrpc":"2.0","method":"shutdown"}"#)
  }

  /// The writer and the `JSONValue` envelope give the same bytes, so replies did not change.
  @Test(arguments: [JSONValue.null, ["b": [1, 2.5, "x/y"], "a": nil], "é\u{0}", -0.0, 1e300])
  func writtenEnvelopesMatchTheJSONValueOnes(result: JSONValue) {
    for id: RequestID? in [7, "7", nil] {
      #expect(
        written { Message.writeResponse(id: id, result: result, to: &$0) }
          == Message.responseObject(id: id, result: .success(result)).jsonText)
    }
    let error = ResponseError(code: .invalidParams, message: "missing field \"uri\"", data: result)
    #expect(
      written { Message.writeResponse(id: 1, error: error, to: &$0) }
        == Message.responseObject(id: 1, result: .failure(error)).jsonText)
    #expect(
      written { Message.writeNotification(method: "m", params: result, to: &$0) }
        == Message.notificationObject(method: "m", params: result).jsonText)
    #expect(
      written { Message.writeRequest(id: 2, method: "m", params: result, to: &$0) }
        == Message.requestObject(id: 2, method: "m", params: result).jsonText)
  }

  @Test func idsAndErrorsWriteThemselves() {
    #expect(written { RequestID.int(-3).write(to: &$0) } == "-3")
    #expect(written { RequestID.string("7").write(to: &$0) } == #""7""#)
    #expect(written { ResponseError.cancelled.write(to: &$0) } == #"{"code":-32800,"message":"request cancelled"}"#)
  }
}
