import JSONRPC
import Testing

@Suite("Message validation (JSON-RPC 2.0 §4–§6)")
struct MessageTests {
  @Test func requestsKeepTheirIDType() {
    #expect(
      Message.decodeBody(Array(#"{"jsonrpc":"2.0","id":7,"method":"m"}"#.utf8))
        == .single(.request(id: .int(7), method: "m", params: nil)))
    #expect(
      Message.decodeBody(Array(#"{"jsonrpc":"2.0","id":"7","method":"m","params":{"a":1}}"#.utf8))
        == .single(.request(id: .string("7"), method: "m", params: JSONElement(["a": 1]))))
    #expect(
      Message.decodeBody(Array(#"{"jsonrpc":"2.0","id":9007199254740991,"method":"m","params":[1]}"#.utf8))
        == .single(.request(id: .int(9_007_199_254_740_991), method: "m", params: JSONElement([1]))))
    #expect(
      Message.decodeBody(Array(#"{"jsonrpc":"2.0","id":-5,"method":"m","params":null}"#.utf8))
        == .single(.request(id: .int(-5), method: "m", params: nil)))
  }

  @Test func methodWithoutIDIsANotification() {
    #expect(
      Message.decodeBody(Array(#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#.utf8))
        == .single(.notification(method: "initialized", params: JSONElement([:]))))
  }

  @Test func responsesFromTheClientAreRecognised() {
    #expect(
      Message.decodeBody(Array(#"{"jsonrpc":"2.0","id":1,"result":null}"#.utf8))
        == .single(.response(id: .int(1), result: .success(.null))))
    #expect(
      Message.decodeBody(Array(#"{"jsonrpc":"2.0","id":2,"error":{"code":-1,"message":"no"}}"#.utf8))
        == .single(
          .response(id: .int(2), result: .failure(ResponseError(code: ErrorCode(rawValue: -1), message: "no")))))
  }

  @Test(
    "parse errors answer -32700 with id null",
    arguments: [
      "", "{", #"{"jsonrpc":"2.0","id":1,"method":"m""#, "[1,", #""\ud800""#,
      #"{"jsonrpc":"2.0","id":1,"method":"\udfff"}"#,
    ])
  func parseErrors(body: String) {
    expectInvalid(body, code: .parseError, id: nil)
  }

  @Test func invalidUTF8AndDeepNestingAreParseErrors() {
    guard case .single(.invalid(nil, let e1)) = Message.decodeBody([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D]) else {
      Issue.record("invalid UTF-8 not refused")
      return
    }
    #expect(e1.code == .parseError)
    let deep =
      [UInt8](repeating: UInt8(ascii: "["), count: 100_000) + [UInt8](repeating: UInt8(ascii: "]"), count: 100_000)
    guard case .single(.invalid(nil, let e2)) = Message.decodeBody(deep) else {
      Issue.record("deep nesting not refused")
      return
    }
    #expect(e2.code == .parseError)
  }

  @Test(
    "invalid requests answer -32600, echoing a valid id",
    arguments: [
      (#"[]"#, nil),
      (#"1"#, nil),
      (#""x""#, nil),
      (#"null"#, nil),
      (#"{}"#, nil),
      (#"{"id":1,"method":"m"}"#, RequestID.int(1)),
      (#"{"jsonrpc":"1.0","id":"a","method":"m"}"#, RequestID.string("a")),
      (#"{"jsonrpc":2.0,"id":1,"method":"m"}"#, RequestID.int(1)),
      (#"{"jsonrpc":"2.0","id":1,"method":5}"#, RequestID.int(1)),
      (#"{"jsonrpc":"2.0","method":5}"#, nil),
      (#"{"jsonrpc":"2.0","id":1}"#, RequestID.int(1)),
      (#"{"jsonrpc":"2.0","id":1,"method":"m","params":3}"#, RequestID.int(1)),
      (#"{"jsonrpc":"2.0","id":1,"method":"m","params":"x"}"#, RequestID.int(1)),
      (#"{"jsonrpc":"2.0","id":1,"method":"m","params":true}"#, RequestID.int(1)),
      (#"{"jsonrpc":"2.0","method":"m","params":3}"#, nil),
      (#"{"jsonrpc":"2.0","id":1.5,"method":"m"}"#, nil),
      (#"{"jsonrpc":"2.0","id":true,"method":"m"}"#, nil),
      (#"{"jsonrpc":"2.0","id":{"a":1},"method":"m"}"#, nil),
      (#"{"jsonrpc":"2.0","id":[1],"method":"m"}"#, nil),
      (#"{"jsonrpc":"2.0","id":null,"method":"m"}"#, nil),
    ])
  func invalidRequests(body: String, id: RequestID?) {
    expectInvalid(body, code: .invalidRequest, id: id)
  }

  @Test(
    "an id that is not an integer or a string is named for what it is",
    arguments: [
      (#"1.5"#, "a fraction"),
      (#"123456789012345678901234567890"#, "an integer outside the 64-bit range"),
      (#"-9223372036854775809"#, "an integer outside the 64-bit range"),
      (#"1e30"#, "an integer outside the 64-bit range"),
      (#"null"#, "null"),
      (#"true"#, "not an integer or a string"),
    ])
  func invalidIDMessages(id: String, kind: String) {
    let body = #"{"jsonrpc":"2.0","id":"# + id + #","method":"m"}"#
    guard case .single(.invalid(nil, let error)) = Message.decodeBody(Array(body.utf8)) else {
      Issue.record("expected an invalid message for \(body)")
      return
    }
    #expect(error.message == "invalid request: \"id\" is \(kind)")
  }

  @Test func batchesAreClassifiedInOrder() {
    let body = #"[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"b"},1,[]]"#
    guard case .batch(let messages) = Message.decodeBody(Array(body.utf8)) else {
      Issue.record("not a batch")
      return
    }
    #expect(messages.count == 4)
    #expect(messages[0] == .request(id: 1, method: "a", params: nil))
    #expect(messages[1] == .notification(method: "b", params: nil))
    guard case .invalid(nil, let e2) = messages[2], case .invalid(nil, let e3) = messages[3] else {
      Issue.record("batch elements 2 and 3 not invalid")
      return
    }
    #expect(e2.code == .invalidRequest && e3.code == .invalidRequest)
  }

  @Test func responseObjectsHaveTheWireShape() {
    #expect(
      Message.responseObject(id: .string("7"), result: .success(.null)).jsonText
        == #"{"id":"7","jsonrpc":"2.0","result":null}"#)
    #expect(
      Message.responseObject(id: nil, result: .failure(ResponseError(code: .parseError, message: "bad"))).jsonText
        == #"{"error":{"code":-32700,"message":"bad"},"id":null,"jsonrpc":"2.0"}"#)
    #expect(
      Message.notificationObject(method: "$/progress", params: ["token": 1]).jsonText
        == #"{"jsonrpc":"2.0","method":"$/progress","params":{"token":1}}"#)
  }

  @Test func errorCodesHaveTheSpecValues() {
    #expect(ErrorCode.parseError.rawValue == -32700)
    #expect(ErrorCode.invalidRequest.rawValue == -32600)
    #expect(ErrorCode.methodNotFound.rawValue == -32601)
    #expect(ErrorCode.invalidParams.rawValue == -32602)
    #expect(ErrorCode.internalError.rawValue == -32603)
    #expect(ErrorCode.serverNotInitialized.rawValue == -32002)
    #expect(ErrorCode.requestCancelled.rawValue == -32800)
  }
}

@Suite struct IncomingMessageTests {
  @Test func aMessageWithoutAnIdIsANotification() {
    #expect(IncomingMessage(method: "note", params: nil, id: nil).isNotification)
    #expect(!IncomingMessage(method: "call", params: nil, id: .int(1)).isNotification)
    #expect(!IncomingMessage(method: "call", params: nil, id: .string("a")).isNotification)
  }
}

extension IncomingMessageTests {
  @Test(arguments: ["3", "\"text\"", "true"])
  func scalarParamsAreRefusedWithWhatIsExpected(_ params: String) {
    let body = #"{"jsonrpc":"2.0","id":1,"method":"m","params":"# + params + "}"
    guard case .single(.invalid(_, let error)) = Message.decodeBody(Array(body.utf8)) else {
      Issue.record("not refused: \(body)")
      return
    }
    #expect(error.message == #"invalid request: "params" must be an object or an array"#)
  }

  @Test func aRequestOfAnotherJSONRPCVersionIsRefusedWithWhatIsExpected() {
    guard
      case .single(.invalid(let id, let error)) = Message.decodeBody(
        Array(#"{"jsonrpc":"1.0","id":4,"method":"m"}"#.utf8))
    else {
      Issue.record("not refused")
      return
    }
    #expect(id == .int(4))
    #expect(error.code == .invalidRequest)
    #expect(error.message == #"invalid request: "jsonrpc" must be "2.0""#)
  }
}
