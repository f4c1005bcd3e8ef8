import JSONRPC
import OutlineModel
import OutlineTestSupport
import Testing

@testable import OutlineServer

extension OutlineServer {
  /// The result of `message` as a value: written by the JSON writer, read back.
  func handleForTest(_ message: IncomingMessage) throws(ResponseError) -> JSONValue {
    let result = try result(for: message)
    var json = JSONWriter()
    result.write(to: &json)
    return try! JSONValue.parse(json.bytes)
  }
}

/// A server driven in-process, one message at a time.
final class InProcess {
  let server = OutlineServer(exitProcess: { _ in })
  private var nextID: Int64 = 1

  init(initialize: Bool = true) {
    if initialize { _ = try? call("initialize") }
  }

  func call(_ method: String, _ params: JSONValue? = nil) throws(ResponseError) -> JSONValue {
    let id = RequestID.int(nextID)
    nextID += 1
    return try server.handleForTest(IncomingMessage(method: method, params: params, id: id))
  }

  /// The error a call must throw.
  func error(
    _ method: String, _ params: JSONValue? = nil, sourceLocation: SourceLocation = #_sourceLocation
  ) -> ResponseError? {
    do {
      let r = try call(method, params)
      Issue.record("\(method) succeeded: \(r.jsonText)", sourceLocation: sourceLocation)
      return nil
    } catch {
      return error
    }
  }
}

@Suite struct HandleTests {
  let text = "groups:\n  - {id: a, title: A, expanded: true, rows: [{id: r, title: R}]}\n  - {id: b, title: B}\n"

  @Test func lifecycleCodes() throws {
    let s = InProcess(initialize: false)
    #expect(s.error("visibleRows")?.code == .serverNotInitialized)
    _ = try s.call("initialize")
    #expect(s.error("initialize")?.code == .invalidRequest)
    #expect(s.error("nope")?.code == .methodNotFound)
    #expect(try s.call("shutdown") == .null)
    #expect(s.error("visibleRows")?.code == .invalidRequest)
    #expect(s.server.exitStatus == 0)
  }

  @Test func aNotificationIsNeverAnsweredAndChangesNothing() throws {
    let s = InProcess()
    let r = try s.server.handleForTest(IncomingMessage(method: "shutdown", params: nil, id: nil))
    #expect(r == .null)
    #expect(s.server.exitStatus == 1)
  }

  @Test func theExitNotificationPassesTheStatus() throws {
    final class Box: @unchecked Sendable {
      // @unchecked Sendable: written once by the handler, on this test's thread.
      var status: Int32? = nil
    }
    let box = Box()
    let server = OutlineServer(exitProcess: { box.status = $0 })
    _ = try server.handleForTest(IncomingMessage(method: "exit", params: nil, id: nil))
    #expect(box.status == 1)
  }

  @Test func openToggleAndReadAWholeAnswer() throws {
    let s = InProcess()
    let open = try s.call("openOutline", ["uri": "u", "text": .string(text)])
    #expect(open.jsonText == #"{"diagnostics":[],"groupCount":2,"rowCount":1,"total":3,"version":1}"#)
    let t = try s.call("toggleSection", ["uri": "u", "section": "a", "scrollTop": 0])
    #expect(
      t.jsonText
        == #"{"changes":[{"count":1,"kind":"delete","start":1}],"contentHeight":2,"expanded":false,"id":"a","scrollTop":0,"total":2,"updatedGroups":["a"],"version":2}"#
    )
    #expect(s.error("toggleSection", ["uri": "u", "section": "r"])?.code == .unknownSection)
    #expect(s.error("toggleSection", ["uri": "v", "section": "a"])?.code == .unknownOutline)
    #expect(s.error("openOutline", ["uri": "u", "text": "groups: [\n"])?.code == .invalidOutline)
  }

  @Test func theInvalidOutlineMessageCountsErrorsAndNamesTheFirst() throws {
    let s = InProcess()
    let e = s.error("openOutline", ["uri": "u", "text": "groups:\n  - title: A\n    title: B\n"])
    #expect(e?.message == "the outline has 1 error; first at 3:5: duplicate key \"title\"")
    #expect(e?.data?["diagnostics"]?.arrayValue?.count == 1)
  }

  @Test func positionEncodingIsTheFirstSupportedInTheClientsOrder() throws {
    let s = InProcess(initialize: false)
    let r = try s.call("initialize", ["capabilities": ["general": ["positionEncodings": ["x", "utf-32", "utf-8"]]]])
    #expect(r["capabilities"]?["positionEncoding"] == "utf-32")
    #expect(s.server.positionEncoding == .utf32)
    let t = InProcess(initialize: false)
    #expect(
      t.error("initialize", ["capabilities": ["general": ["positionEncodings": "utf-8"]]])?.message
        == "\"capabilities.general.positionEncodings\" must be an array of strings")
  }
}

@Suite struct ParamsTests {
  func message(_ params: JSONValue?, _ read: (ParamsReader) throws(ResponseError) -> Void) -> String? {
    do {
      try read(try ParamsReader(params))
      return nil
    } catch {
      #expect(error.code == .invalidParams)
      return error.message
    }
  }

  @Test func messagesNameTheField() {
    #expect(message(["a": 1]) { p throws(ResponseError) in _ = try p.string("uri") } == "\"uri\" is missing")
    #expect(message(["uri": 1]) { p throws(ResponseError) in _ = try p.string("uri") } == "\"uri\" must be a string")
    #expect(
      message(["start": -2]) { p throws(ResponseError) in _ = try p.optionalInt("start") }
        == "\"start\" must be a non-negative integer")
    #expect(
      message(["maxLines": 0]) { p throws(ResponseError) in _ = try p.optionalInt("maxLines", min: 1) }
        == "\"maxLines\" must be an integer ≥ 1")
    #expect(
      message(["width": 0]) { p throws(ResponseError) in _ = try p.optionalNumber("width", above: 0) }
        == "\"width\" must be > 0")
    #expect(
      message(["indent": -0.5]) { p throws(ResponseError) in _ = try p.optionalNumber("indent", min: 0) }
        == "\"indent\" must be ≥ 0")
    #expect(
      message(["y": "top"]) { p throws(ResponseError) in _ = try p.number("y") } == "\"y\" must be a number")
    #expect(
      message(["watch": "yes"]) { p throws(ResponseError) in _ = try p.optionalBool("watch") }
        == "\"watch\" must be true or false")
    #expect(
      message(["unit": "em"]) { p throws(ResponseError) in _ = try p.optionalEnum("unit", LayoutUnit.self) }
        == "\"unit\" must be one of \"cell\", \"px\", \"font\"")
    #expect(
      message(["viewport": ["top": 0]]) { p throws(ResponseError) in
        _ = try p.optionalObject("viewport")?.number("height")
      } == "\"viewport.height\" is missing")
    #expect(
      message(["padding": 3]) { p throws(ResponseError) in _ = try p.optionalObject("padding") }
        == "\"padding\" must be an object")
  }

  @Test func paramsMayBeAbsentOrNullButNotAnArray() {
    #expect(message(nil) { _ throws(ResponseError) in } == nil)
    #expect(message(.null) { _ throws(ResponseError) in } == nil)
    #expect((try? ParamsReader(nil as JSONElement?))?.object == nil)
    #expect(message(["x"]) { _ throws(ResponseError) in } == "params must be an object")
  }

  @Test func nullReadsAsAbsent() throws {
    let p = try ParamsReader(["start": .null])
    #expect(try p.optionalInt("start") == nil)
  }
}
