import Foundation
import JSONRPC
import OutlineTestSupport
import Testing

/// What only the binary shows: stdout kept for protocol alone, memory of the process.
@Suite struct ProcessTests {
  /// The peak resident set of `s` in KiB (`VmHWM`), or `nil` when /proc has no answer.
  func peakRSS(_ s: ServerProcess) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(s.process.processIdentifier)/status", encoding: .utf8)
    else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
      return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
    }
    return nil
  }

  @Test func ndjsonOutputIsOneValuePerLineAndStdoutCarriesProtocolOnly() throws {
    let input =
      [
        requestText(1, "initialize"), "garbage",
        requestText(2, "openOutline", ["uri": "untitled:x", "text": "groups:\n  - title: \"a\\nb\"\n"]),
        requestText(3, "visibleRows", ["uri": "untitled:x"]), requestText(4, "shutdown"),
        #"{"jsonrpc":"2.0","method":"exit"}"#,
      ].joined(separator: "\n") + "\n"
    let run = try runServer(["--framing", "ndjson", "--log-level", "debug"], input: Data(input.utf8))
    #expect(run.status == 0)
    let lines = String(decoding: run.stdout, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.last == "", "the output ends with a newline")
    let messages = lines.dropLast().map { try? JSONValue.parse(String($0)) }
    #expect(messages.count == 5)
    for m in messages { #expect(m?["jsonrpc"] == "2.0") }
    #expect(!run.stderr.isEmpty, "debug logs go to stderr")
  }

  @Test func lspStdoutCarriesOnlyFramedMessages() throws {
    var input = framed(requestText(1, "initialize")) + framed("nope")
    input += framed(requestText(2, "openOutline", ["uri": "untitled:x", "text": "title: [\n"]))
    input += framed(requestText(3, "shutdown")) + framed(#"{"jsonrpc":"2.0","method":"exit"}"#)
    let run = try runServer(["--log-level", "debug"], input: Data(input))
    #expect(run.status == 0)
    var framer = Framing.lsp.makeFramer(maxMessageBytes: 1 << 20)
    framer.push([UInt8](run.stdout))
    var ids: [JSONValue] = []
    while let body = try framer.next() { ids.append((try JSONValue.parse(body))["id"] ?? "missing") }
    #expect(try framer.finish() == nil, "nothing but frames on stdout")
    #expect(ids == [1, .null, 2, 3])
  }

  /// The work the loader does on a bomb is counted in OutlineYAMLTests' AliasTests
  /// (refused before 4096 events); here, the memory the real process takes for it.
  @Test func aliasBombIsRefusedWithBoundedMemory() throws {
    let s = try ServerProcess()
    s.initialize()
    let baseline = peakRSS(s)
    let reply = s.request("openOutline", ["uri": "mem:bomb", "text": .string(aliasBomb)])
    #expect(reply["error"]?["code"] == -32011)
    let diagnostic = reply["error"]?["data"]?["diagnostics"]?[0]
    #expect(diagnostic?["code"] == "too-many-nodes")
    #expect(diagnostic?["message"]?.stringValue?.contains("alias") == true)
    if let baseline, let peak = peakRSS(s) {
      #expect(peak - baseline < 64 * 1024, "peak RSS grew by \(peak - baseline) KiB")
    }
    // A normal use of anchors still loads, the alias expanded.
    let normal = """
      defaults: &who {team: blue, floor: 3}
      groups:
        - id: g
          title: Team
          expanded: true
          rows:
            - {id: a, title: Ann, data: *who}
            - {id: b, title: Ben, data: *who}
      """
    let r = s.result("openOutline", ["uri": "mem:anchors", "text": .string(normal)])
    #expect(r["rowCount"] == 2)
    let rows = s.result("visibleRows", ["uri": "mem:anchors"])["rows"]
    #expect(rows?[2]?["data"] == ["team": "blue", "floor": 3])
    s.expectServing()
  }
}
