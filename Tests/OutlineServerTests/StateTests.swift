import Foundation
import JSONRPC
import OutlineTestSupport
import Testing

/// What survives a failed or successful reload, on the real binary (§3, §8):
/// a failed `openOutline` or `changeOutline` leaves everything as it was;
/// expansion follows ids across reloads, the user's state wins over the
/// file's `expanded`, and ids that leave the file take their state with them.
@Suite struct StateTests {
  static let yaml = """
    groups:
      - id: friends
        title: Friends
        expanded: true
        rows:
          - {id: alice, title: Alice}
          - {id: bob, title: Bob}
      - id: family
        title: Family
        groups:
          - id: cousins
            title: Cousins
            rows: [{id: dan, title: Dan}]
        rows: [{id: mum, title: Mum}]
      - id: work
        title: Work
        rows: [{id: eve, title: Eve}]
    """

  /// Everything a host can observe of `uri`: its rows, view state and layout heights.
  func snapshot(_ s: InProcessServer, _ uri: String = "mem:s") -> JSONValue {
    [
      "rows": s.result("visibleRows", ["uri": .string(uri)]),
      "view": s.result("getViewState", ["uri": .string(uri)]),
      "heights": s.result("rowHeights", ["uri": .string(uri)]),
    ]
  }

  func ids(_ s: InProcessServer, _ uri: String = "mem:s") -> [String] {
    let rows = s.result("visibleRows", ["uri": .string(uri)])["rows"]?.arrayValue ?? []
    return rows.compactMap { $0["id"]?.stringValue }
  }

  func start() throws -> InProcessServer {
    let s = try InProcessServer()
    s.initialize()
    _ = s.result("openOutline", ["uri": "mem:s", "text": .string(Self.yaml)])
    _ = s.result("toggleSection", ["uri": "mem:s", "section": "family"])
    _ = s.result("toggleSection", ["uri": "mem:s", "section": "cousins"])
    // setLayout's fields are its params (PROTOCOL §5), not a nested `layout`.
    _ = s.result("setLayout", ["uri": "mem:s", "rowHeight": 2, "headerHeight": 3])
    _ = s.result("navigate", ["uri": "mem:s", "key": "down", "from": "friends"])
    #expect(heights(s) == [3, 2, 2, 3, 3, 2, 2, 3], "the layout is applied before the snapshots")
    return s
  }

  /// The height of each visible item, in order.
  func heights(_ s: InProcessServer, _ uri: String = "mem:s") -> [Int64] {
    (s.result("rowHeights", ["uri": .string(uri)])["heights"]?.arrayValue ?? []).compactMap(\.intValue)
  }

  static let broken: [String] = [
    "groups:\n  - title: A\n    title: B\n",  // duplicate key
    "groups: [{rows: [{title: r}]}]\n",  // missing title
    "groups:\n\t- title: A\n",  // tab indentation
    "groups: [",  // syntax
    "a: &x [*x]\n",  // undefined alias
    "groups: [{id: a, title: A}, {id: a, title: B}]\n",  // duplicate id
    "groups: [{title: A, expanded: \"true\"}]\n",  // wrong type
    "--- {groups: []}\n--- {groups: []}\n",  // two documents
  ]

  @Test func aFailedReopenLeavesTheOutlineExactlyAsItWas() throws {
    let s = try start()
    let before = snapshot(s)
    for text in Self.broken {
      let reply = s.request("openOutline", ["uri": "mem:s", "text": .string(text)])
      #expect(reply["error"]?["code"] == -32011, "for \(text.debugDescription)")
      #expect(snapshot(s).jsonText == before.jsonText, "after \(text.debugDescription)")
    }
    // Bad params and an unreadable file fail before anything is touched, too.
    #expect(s.errorCode("openOutline", ["uri": "mem:s", "text": .string(Self.yaml), "policy": "some"]) == -32602)
    #expect(s.errorCode("openOutline", ["uri": "mem:s"]) == -32602)
    #expect(snapshot(s).jsonText == before.jsonText)
  }

  @Test func aFailedChangeLeavesTheOutlineExactlyAsItWas() throws {
    let s = try start()
    let before = snapshot(s)
    let version = before["rows"]?["version"]
    for text in Self.broken {
      let r = s.result("changeOutline", ["uri": "mem:s", "text": .string(text)])
      #expect(r["applied"] == false, "for \(text.debugDescription)")
      #expect(r["version"] == version)
      #expect(r["changes"] == [])
      #expect(snapshot(s).jsonText == before.jsonText, "after \(text.debugDescription)")
    }
    #expect(s.errorCode("changeOutline", ["uri": "mem:s"]) == -32602)
    #expect(s.errorCode("changeOutline", ["uri": "mem:s", "text": 3]) == -32602)
    #expect(snapshot(s).jsonText == before.jsonText)
  }

  @Test func expansionSurvivesReloadsByID() throws {
    let s = try start()
    let expanded = s.result("getViewState", ["uri": "mem:s"])["expanded"]
    #expect(expanded == ["friends", "family", "cousins"])
    // The same groups, reordered and retitled: expansion follows the ids.
    let reordered = """
      groups:
        - id: work
          title: Work!
          rows: [{id: eve, title: Eve}]
        - id: family
          title: Family!
          rows: [{id: mum, title: Mum}]
          groups:
            - id: cousins
              title: Cousins!
              rows: [{id: dan, title: Dan}]
        - id: friends
          title: Friends!
          expanded: true
          rows: [{id: alice, title: Alice}]
      """
    let r = s.result("changeOutline", ["uri": "mem:s", "text": .string(reordered)])
    #expect(r["applied"] == true)
    #expect(ids(s) == ["work", "family", "cousins", "dan", "mum", "friends", "alice"])
    // So does the host's layout (PROTOCOL §8: setLayout values survive changeOutline).
    #expect(heights(s) == [3, 3, 3, 2, 2, 3, 2])
    // Re-opening the uri keeps both too.
    _ = s.result("openOutline", ["uri": "mem:s", "text": .string(Self.yaml)])
    #expect(ids(s) == ["friends", "alice", "bob", "family", "cousins", "dan", "mum", "work"])
    #expect(heights(s) == [3, 2, 2, 3, 3, 2, 2, 3])
  }

  @Test func theUsersStateWinsOverTheFilesExpanded() throws {
    let s = try InProcessServer()
    s.initialize()
    _ = s.result("openOutline", ["uri": "mem:s", "text": .string(Self.yaml)])
    #expect(ids(s) == ["friends", "alice", "bob", "family", "work"])
    _ = s.result("toggleSection", ["uri": "mem:s", "section": "friends"])  // the user closes it
    _ = s.result("toggleSection", ["uri": "mem:s", "section": "work"])  // and opens this one
    // The file now says the opposite for both, and opens a new group.
    let flipped =
      Self.yaml
      .replacingOccurrences(of: "    expanded: true\n", with: "")
      .replacingOccurrences(of: "title: Work\n", with: "title: Work\n    expanded: false\n")
      + "\n  - id: new\n    title: New\n    expanded: true\n    rows: [{id: n, title: N}]"
    for _ in 0..<2 {
      #expect(s.result("changeOutline", ["uri": "mem:s", "text": .string(flipped)])["applied"] == true)
      #expect(ids(s) == ["friends", "family", "work", "eve", "new", "n"])
    }
    _ = s.result("openOutline", ["uri": "mem:s", "text": .string(flipped)])
    #expect(ids(s) == ["friends", "family", "work", "eve", "new", "n"])
  }

  @Test func idsThatLeaveTheFileDropTheirState() throws {
    let s = try start()
    _ = s.result("navigate", ["uri": "mem:s", "key": "end", "from": "friends"])  // focus on work
    #expect(s.result("getViewState", ["uri": "mem:s"])["focus"] == "work")
    let without = """
      groups:
        - id: friends
          title: Friends
          rows: [{id: alice, title: Alice}]
      """
    let r = s.result("changeOutline", ["uri": "mem:s", "text": .string(without)])
    #expect(r["applied"] == true)
    let view = s.result("getViewState", ["uri": "mem:s"])
    #expect(view["expanded"] == ["friends"])
    #expect(view["focus"] == nil)
    // When they come back, they take the file's `expanded` again: the user's state went with them.
    #expect(s.result("changeOutline", ["uri": "mem:s", "text": .string(Self.yaml)])["applied"] == true)
    #expect(ids(s) == ["friends", "alice", "bob", "family", "work"])
  }
}
