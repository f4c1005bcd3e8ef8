import Foundation
import JSONRPC
import OutlineTestSupport
import Testing

/// PROTOCOL §9 `changeOutline {uri, edits}`: LSP content changes applied to the text the server keeps.
@Suite struct EditTests {
  static let text = """
    groups:
      - id: g
        title: G
        expanded: true
        rows:
          - {id: a, title: A}
          - {id: b, title: B}

    """

  static func edit(_ l0: Int, _ c0: Int, _ l1: Int, _ c1: Int, _ text: String) -> JSONValue {
    [
      "range": [
        "start": ["line": .int(Int64(l0)), "character": .int(Int64(c0))],
        "end": ["line": .int(Int64(l1)), "character": .int(Int64(c1))],
      ],
      "text": .string(text),
    ]
  }

  func change(
    _ s: InProcessServer, _ uri: String, _ edits: [JSONValue], sourceLocation: SourceLocation = #_sourceLocation
  )
    -> JSONValue
  {
    s.result("changeOutline", ["uri": .string(uri), "edits": .array(edits)], sourceLocation: sourceLocation)
  }

  func titles(_ s: InProcessServer, _ uri: String) -> [String] {
    s.rows(uri).compactMap { $0["title"]?.stringValue }
  }

  @Test func editsApplyInOrderEachAgainstTheTextTheOnesBeforeLeft() throws {
    let s = try InProcessServer.started()
    s.open("mem:e", Self.text)
    let r = change(
      s, "mem:e",
      [
        // A row after b, then b's title, on the text as the first edit left it, then a's.
        Self.edit(7, 0, 7, 0, "      - {id: c, title: C}\n"),
        Self.edit(6, 23, 6, 24, "Bee"),
        Self.edit(5, 23, 5, 24, "Ay"),
      ])
    #expect(r["applied"] == true)
    #expect(r["version"] == 2)
    #expect(r["diagnostics"] == [])
    #expect(titles(s, "mem:e") == ["G", "Ay", "Bee", "C"])
    // The result is as with the whole text: the same change list.
    let whole = try InProcessServer.started()
    whole.open("mem:e", Self.text)
    let expected =
      Self.text.replacingOccurrences(of: "title: A}", with: "title: Ay}")
      .replacingOccurrences(of: "title: B}", with: "title: Bee}") + "      - {id: c, title: C}\n"
    let w = whole.result("changeOutline", ["uri": "mem:e", "text": .string(expected)])
    #expect(w == r)
    #expect(s.rows("mem:e") == whole.rows("mem:e"))
    // Later edits apply on top.
    #expect(change(s, "mem:e", [Self.edit(7, 0, 8, 0, "")])["applied"] == true)
    #expect(titles(s, "mem:e") == ["G", "Ay", "Bee"])
  }

  @Test func bothOrNeitherOfTextAndEditsIsInvalidParams() throws {
    let s = try InProcessServer.started()
    s.open("mem:e", Self.text)
    let both = s.error("changeOutline", ["uri": "mem:e", "text": .string(Self.text), "edits": []])
    #expect(both["code"] == -32602)
    #expect(both["message"] == "\"text\" and \"edits\" are both given: send one of them")
    let neither = s.error("changeOutline", ["uri": "mem:e"])
    #expect(neither["code"] == -32602)
    #expect(neither["message"] == "\"text\" or \"edits\" is missing: send one of them")
    // Wrongly shaped edits name the field.
    let cases: [(JSONValue, String)] = [
      ("x", "\"edits\" must be an array"),
      (["x"], "\"edits[0]\" must be an object"),
      ([["text": "x"]], "\"edits[0].range\" is missing"),
      ([["range": ["start": ["line": 0, "character": 0]], "text": ""]], "\"edits[0].range.end\" is missing"),
      (
        [["range": ["start": ["line": -1, "character": 0], "end": ["line": 0, "character": 0]], "text": ""]],
        "\"edits[0].range.start.line\" must be a non-negative integer"
      ),
      ([Self.edit(0, 0, 0, 0, ""), ["range": Self.edit(0, 0, 0, 0, "")["range"]!]], "\"edits[1].text\" is missing"),
    ]
    for (edits, message) in cases {
      #expect(s.error("changeOutline", ["uri": "mem:e", "edits": edits])["message"] == .string(message))
    }
    #expect(s.version("mem:e") == 1)
  }

  /// Ranges outside the text, reversed, or splitting a character, in each
  /// position encoding: `-32602` naming the range, and nothing applied.
  @Test(arguments: ["utf-8", "utf-16", "utf-32"])
  func badRangesAreRefusedAndNothingIsApplied(_ encoding: String) throws {
    let s = try InProcessServer().start(encoding: encoding)
    // Line 5: `      - {id: a, title: "é😀"}`: é is 2 UTF-8 bytes, 😀 4 bytes or 2 UTF-16 units.
    let text = Self.text.replacingOccurrences(of: "title: A}", with: "title: \"é😀\"}")
    s.open("mem:e", text)
    let length = ["utf-8": 32, "utf-16": 29, "utf-32": 28][encoding]!
    // A first good edit, then a bad one: neither is applied.
    let good = Self.edit(2, 11, 2, 11, "Changed ")
    var bad: [(JSONValue, String)] = [
      (Self.edit(9, 0, 9, 0, "x"), "\"edits[1].range.start\" is outside the text: it has 8 lines (0 to 7), not line 9"),
      (
        Self.edit(5, 0, 5, length + 1, "x"),
        "\"edits[1].range.end\" is outside the text: line 5 is \(length) \(encoding) code units long, "
          + "character \(length + 1) is past its end"
      ),
      (Self.edit(6, 2, 5, 4, "x"), "\"edits[1].range\" ends before it starts"),
    ]
    switch encoding {
    case "utf-8":
      bad.append(
        (
          Self.edit(5, 25, 5, 26, ""),
          "\"edits[1].range.start\" splits a character: utf-8 character 25 of line 5 falls inside the 2-byte UTF-8 "
            + "sequence of U+00E9"
        ))
      bad.append(
        (
          Self.edit(5, 26, 5, 28, ""),
          "\"edits[1].range.end\" splits a character: utf-8 character 28 of line 5 falls inside the 4-byte UTF-8 "
            + "sequence of U+1F600"
        ))
    case "utf-16":
      bad.append(
        (
          Self.edit(5, 25, 5, 26, ""),
          "\"edits[1].range.end\" splits a character: utf-16 character 26 of line 5 falls inside the surrogate pair "
            + "of U+1F600"
        ))
    default:
      // Scalars: the emoji is one character, nothing can split it.
      #expect(change(s, "mem:e", [Self.edit(5, 25, 5, 26, "x")])["applied"] == true)
    }
    let before = s.rows("mem:e")
    let version = s.version("mem:e")
    for (edit, message) in bad {
      let e = s.error("changeOutline", ["uri": "mem:e", "edits": [good, edit]])
      #expect(e["code"] == -32602)
      #expect(e["message"] == .string(message))
    }
    #expect(s.version("mem:e") == version)
    #expect(s.rows("mem:e") == before)
    // The kept text is as it was: the good edit alone lands where it would have.
    #expect(change(s, "mem:e", [good])["applied"] == true)
    #expect(titles(s, "mem:e").first == "Changed G")
  }

  /// A broken text is kept: edits apply to it, and the outline stays the
  /// last good one until the text is good again.
  @Test func editsOnABrokenTextApplyToTheBrokenText() throws {
    let s = try InProcessServer.started()
    s.open("mem:e", Self.text)
    // Line 6's `}` goes: the text no longer parses.
    let broken = change(s, "mem:e", [Self.edit(6, 24, 6, 25, "")])
    #expect(broken["applied"] == false)
    #expect(broken["version"] == 1)
    #expect(broken["diagnostics"]?[0]?["code"] == "syntax")
    #expect(titles(s, "mem:e") == ["G", "A", "B"])
    // More edits on the broken text: still broken, the same outline.
    let still = change(s, "mem:e", [Self.edit(5, 23, 5, 24, "Ay")])
    #expect(still["applied"] == false)
    #expect(titles(s, "mem:e") == ["G", "A", "B"])
    // The `}` back, on the broken text (line 6 is as the first edit left it): good again,
    // with every edit since the last good text.
    let fixed = change(s, "mem:e", [Self.edit(6, 24, 6, 24, "}")])
    #expect(fixed["applied"] == true)
    #expect(fixed["version"] == 2)
    #expect(titles(s, "mem:e") == ["G", "Ay", "B"])
    // A broken whole text is kept the same way.
    #expect(s.result("changeOutline", ["uri": "mem:e", "text": "groups: [\n"])["applied"] == false)
    let whole = change(s, "mem:e", [Self.edit(0, 9, 0, 9, "{title: New}]")])
    #expect(whole["applied"] == true)
    #expect(titles(s, "mem:e") == ["New"])
    // So is a re-open with errors (-32011): edits then apply to that text.
    #expect(s.errorCode("openOutline", ["uri": "mem:e", "text": "groups: [{title: X}\n"]) == -32011)
    #expect(titles(s, "mem:e") == ["New"])
    #expect(change(s, "mem:e", [Self.edit(0, 19, 0, 19, "]")])["applied"] == true)
    #expect(titles(s, "mem:e") == ["X"])
  }

  @Test func editsApplyToAFileAsItWasRead() throws {
    let file = writeFixture(Self.text, name: "edited.yaml")
    let uri = file.absoluteString
    let s = try InProcessServer.started()
    _ = s.result("openOutline", ["uri": .string(uri)])
    #expect(change(s, uri, [Self.edit(2, 11, 2, 12, "Edited")])["applied"] == true)
    #expect(titles(s, uri) == ["Edited", "A", "B"])
    // The file itself is left alone; later edits apply to the edited text.
    #expect(try String(contentsOf: file, encoding: .utf8) == Self.text)
    #expect(change(s, uri, [Self.edit(2, 17, 2, 17, "!")])["applied"] == true)
    #expect(titles(s, uri) == ["Edited!", "A", "B"])
    // Once the text is the host's, the file may change: the edits follow the host's text.
    try "groups: [{title: Z}]\n".write(to: file, atomically: false, encoding: .utf8)
    #expect(change(s, uri, [Self.edit(5, 23, 5, 24, "Ay")])["applied"] == true)
    #expect(titles(s, uri) == ["Edited!", "Ay", "B"])
  }

  /// The file as read is not kept in memory: it is read again when edits
  /// first need it, and refused when it changed since (not watched).
  @Test func editsOnAFileThatChangedSinceItWasReadAreRefused() throws {
    let file = writeFixture(Self.text, name: "changed.yaml")
    let uri = file.absoluteString
    let s = try InProcessServer.started()
    _ = s.result("openOutline", ["uri": .string(uri)])
    try (Self.text + "  - {id: h, title: H}\n").write(to: file, atomically: false, encoding: .utf8)
    let e = s.error("changeOutline", ["uri": .string(uri), "edits": [Self.edit(2, 11, 2, 12, "X")]])
    #expect(e["code"] == -32013)
    #expect(
      e["message"]
        == .string(
          "cannot use the text of \(file.path) as it was read: the file changed since "
            + "(send the whole text, or open it again)"))
    // visibleRows' ranges need that text too.
    #expect(s.errorCode("visibleRows", ["uri": .string(uri), "include": ["range"]]) == -32013)
    #expect(titles(s, uri) == ["G", "A", "B"])
    // Opened again, the new file is the file as read.
    _ = s.result("openOutline", ["uri": .string(uri)])
    #expect(change(s, uri, [Self.edit(7, 19, 7, 20, "Aitch")])["applied"] == true)
    #expect(titles(s, uri) == ["G", "A", "B", "Aitch"])
  }

  /// A watched file that changed since it was read is reloaded first, as
  /// the watcher would, and the edits apply to the new file; the watcher's
  /// own notice of that change then finds nothing new.
  @Test func aWatchedFileThatChangedIsReloadedBeforeEditsApply() throws {
    let file = writeFixture(Self.text, name: "watched.yaml")
    let other = writeFixture(Self.text, name: "other.yaml")
    let uri = JSONValue.string(file.absoluteString)
    let s = try InProcessServer.started()
    _ = s.result("openOutline", ["uri": uri, "watch": true])
    _ = s.result("openOutline", ["uri": .string(other.absoluteString), "watch": true])
    try (Self.text + "  - {id: h, title: H}\n").write(to: file, atomically: false, encoding: .utf8)
    let id = s.sendRequest("changeOutline", ["uri": uri, "edits": [Self.edit(7, 19, 7, 20, "Aitch")]])
    var messages: [JSONValue] = []
    while let m = s.next(timeout: 20) {
      messages.append(m)
      if m["id"] == .int(id) { break }
    }
    #expect(messages.last?["result"]?["applied"] == true)
    // Whether the watcher saw the change first or the edits did, it is read once. The watcher
    // polls every file each round: once it saw a later change of the other file, it has seen
    // this one, and what it scheduled for it has run.
    try (Self.text + "\n").write(to: other, atomically: false, encoding: .utf8)
    while let m = s.next(timeout: 20) {
      messages.append(m)
      if m["method"] == "outlineChanged", m["params"]?["uri"] == .string(other.absoluteString) { break }
    }
    #expect(messages.filter { $0["method"] == "outlineChanged" && $0["params"]?["uri"] == uri }.count == 1)
    #expect(titles(s, file.absoluteString) == ["G", "A", "B", "Aitch"])
  }

  /// A cancelled change changes nothing: neither the outline nor the kept text.
  @Test func aCancelledChangeLeavesTheTextAsItWas() throws {
    let s = try InProcessServer.started()
    s.open("mem:c", longOpenText)
    // `  - title: Group 0` → `Group Zero`, and its cancel, in one write. A long
    // notification between them keeps the reader busy while the worker starts
    // the change, so the cancel finds it parsing the edited text (a change
    // cancelled before it starts changes nothing either).
    let request: JSONValue = [
      "jsonrpc": "2.0", "id": 100, "method": "changeOutline",
      "params": ["uri": "mem:c", "edits": [Self.edit(1, 17, 1, 18, "Zero")]],
    ]
    let padding: JSONValue = [
      "jsonrpc": "2.0", "method": "noSuchNotification", "params": ["text": .string(longOpenText)],
    ]
    let cancel: JSONValue = ["jsonrpc": "2.0", "method": "$/cancelRequest", "params": ["id": 100]]
    s.writeRaw(
      framed(bytes: request.encoded()) + framed(bytes: padding.encoded()) + framed(bytes: cancel.encoded()))
    #expect(s.next()?["error"]?["code"] == -32800)
    // No edits: the kept text is loaded again as it is.
    #expect(change(s, "mem:c", [])["applied"] == true)
    #expect(s.result("visibleRows", ["uri": "mem:c", "count": 1])["rows"]?[0]?["title"] == "Group 0")
    // And edits still land where the text says.
    #expect(change(s, "mem:c", [Self.edit(1, 17, 1, 18, "Zero")])["applied"] == true)
    #expect(s.result("visibleRows", ["uri": "mem:c", "count": 1])["rows"]?[0]?["title"] == "Group Zero")
  }
}
