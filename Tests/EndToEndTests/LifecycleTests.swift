import Foundation
import JSONRPC
import Testing

@Suite struct LifecycleTests {
  @Test func initializeNegotiatesThePositionEncoding() throws {
    let s = try ServerProcess()
    let r = s.result(
      "initialize", ["capabilities": ["general": ["positionEncodings": ["utf-7", "utf-8", "utf-16"]]]])
    #expect(r["capabilities"]?["positionEncoding"] == "utf-8")
    #expect(r["capabilities"]?["policies"] == ["multiple", "single"])
    #expect(r["capabilities"]?["units"] == ["cell", "px"])
    #expect(r["serverInfo"]?["name"] == "outline-server")
    #expect(s.result("shutdown") == .null)
    s.notify("exit")
    #expect(s.waitForExit() == 0)
  }

  @Test func defaultEncodingIsUTF16() throws {
    let s = try ServerProcess()
    #expect(s.initialize()["capabilities"]?["positionEncoding"] == "utf-16")
    let t = try ServerProcess()
    #expect(
      t.initialize(["capabilities": ["general": ["positionEncodings": ["latin-1"]]]])["capabilities"]?[
        "positionEncoding"] == "utf-16")
  }

  @Test func requestsBeforeInitializeAreRefused() throws {
    let s = try ServerProcess()
    #expect(s.errorCode("visibleRows", ["uri": "x"]) == -32002)
    #expect(s.errorCode("noSuchMethod") == -32002)
    s.initialize()
    #expect(s.errorCode("initialize") == -32600)
    #expect(s.errorCode("noSuchMethod") == -32601)
    #expect(s.result("shutdown") == .null)
    #expect(s.errorCode("visibleRows", ["uri": "x"]) == -32600)
    #expect(s.errorCode("shutdown") == -32600)
  }

  @Test func exitWithoutShutdownIsStatus1() throws {
    let s = try ServerProcess()
    s.initialize()
    s.notify("exit")
    #expect(s.waitForExit() == 1)
  }

  @Test func endOfInputEndsTheServer() throws {
    let a = try ServerProcess()
    a.initialize()
    #expect(a.finish() == 1)
    let b = try ServerProcess()
    b.initialize()
    _ = b.result("shutdown")
    #expect(b.finish() == 0)
  }

  @Test func idsAreEchoedWithTheirType() throws {
    let s = try ServerProcess()
    s.initialize()
    for id: JSONValue in ["7", 7, 9_007_199_254_740_991, -3, ""] {
      s.send(["jsonrpc": "2.0", "id": id, "method": "shutdown"])
      let reply = s.next()
      #expect(reply?["id"] == id)
    }
  }
}
