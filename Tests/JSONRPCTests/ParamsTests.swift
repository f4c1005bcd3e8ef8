import JSONRPC
import Testing

@Suite("decodeParams maps decoding failures to -32602 naming the field")
struct ParamsTests {
  struct Params: Decodable {
    struct Viewport: Decodable {
      var top: Double
    }
    var uri: String
    var start: Int?
    var viewport: Viewport?
  }

  func message(_ params: String?) -> IncomingMessage {
    IncomingMessage(method: "m", params: params.map { json($0) }, id: 1)
  }

  @Test func decodes() throws {
    let p = try message(#"{"uri":"u","start":2,"viewport":{"top":1}}"#).decodeParams(Params.self)
    #expect(p.uri == "u" && p.start == 2 && p.viewport?.top == 1)
  }

  @Test(
    arguments: [
      (nil, "missing field \"uri\""),
      (#"{}"#, "missing field \"uri\""),
      (#"{"uri":3}"#, "field \"uri\": expected a string"),
      (#"{"uri":"u","start":"x"}"#, "field \"start\": expected an integer"),
      (#"{"uri":"u","viewport":{}}"#, "missing field \"viewport.top\""),
      (#"{"uri":"u","viewport":{"top":"a"}}"#, "field \"viewport.top\": expected a number"),
      (#"["u"]"#, "params must be an object"),
    ])
  func failures(params: String?, message expected: String) {
    #expect(throws: ResponseError(code: .invalidParams, message: expected)) {
      try message(params).decodeParams(Params.self)
    }
  }
}
