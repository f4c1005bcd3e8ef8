import Foundation
import JSONRPC
import OutlineTestSupport
import Testing

/// §6 of the contract: filter, navigation, view state and its persistence, on the real binary.
@Suite struct ViewStateTests {
  static let yaml = """
    groups:
      - id: friends
        title: Friends
        rows:
          - {id: alice, title: Alice, detail: Straße in Lisbon}
          - {id: bob, title: Bob}
      - id: family
        title: Family
        groups:
          - id: cousins
            title: Cousins
            rows: [{id: dan, title: Dan, detail: STRASSE 5}]
        rows: [{id: mum, title: Mum}]
      - id: work
        title: Work
    """

  func open(_ s: InProcessServer, uri: String = "mem:v", text: String = yaml, encoding: String = "utf-16") {
    s.initialize(["capabilities": ["general": ["positionEncodings": .array([.string(encoding)])]]])
    _ = s.result("openOutline", ["uri": .string(uri), "text": .string(text)])
  }

  func ids(_ s: InProcessServer, uri: String = "mem:v") -> [String] {
    let rows = s.result("visibleRows", ["uri": .string(uri)])["rows"]?.arrayValue ?? []
    return rows.compactMap { $0["id"]?.stringValue }
  }

  @Test func filterShowsMatchesWithTheirGroupsAndRangesInTheEncoding() throws {
    for (encoding, start, length) in [("utf-16", 2, 6), ("utf-8", 3, 7), ("utf-32", 2, 6)] {
      let s = try InProcessServer()
      open(s, text: Self.yaml.replacingOccurrences(of: "Straße in", with: "é Straße in"), encoding: encoding)
      let r = s.result("filterOutline", ["uri": "mem:v", "query": "strasse"])
      #expect(ids(s) == ["friends", "alice", "family", "cousins", "dan"])
      #expect(r["id"] == nil)
      #expect(r["expanded"] == nil)
      let first = r["matches"]?[0]
      #expect(first?["id"] == "alice")
      #expect(first?["index"] == 1)
      // "é " before "Straße": é is 1 UTF-16 unit, 2 UTF-8 bytes; ß counts whole.
      #expect(first?["ranges"] == [["field": "detail", "start": .int(Int64(start)), "length": .int(Int64(length))]])
      #expect(r["matches"]?[1]?["ranges"] == [["field": "detail", "start": 0, "length": 7]])
      let rows = s.result("visibleRows", ["uri": "mem:v"])["rows"]
      #expect(rows?[2]?["isLastChild"] == true)  // family: the last group shown
      #expect(rows?[0]?["rowCount"] == 2)  // counts describe the whole outline
    }
  }

  /// The server folds the query itself (Unicode default case folding, not
  /// lowercasing): a query as the user typed it finds what its folding finds.
  @Test(arguments: ["Straße", "STRASSE", "STRAẞE"])
  func theQueryIsCaseFoldedByTheServer(query: String) throws {
    let s = try InProcessServer()
    open(s)
    let r = s.result("filterOutline", ["uri": "mem:v", "query": .string(query)])
    #expect(ids(s) == ["friends", "alice", "family", "cousins", "dan"])
    expectJSON(
      r["matches"],
      [
        ["index": 1, "id": "alice", "ranges": [["field": "detail", "start": 0, "length": 6]]],
        ["index": 4, "id": "dan", "ranges": [["field": "detail", "start": 0, "length": 7]]],
      ])
  }

  /// A row's detail with astral characters before and inside the match:
  /// 😀 and 🎉 are 2 UTF-16 units, 4 UTF-8 bytes and 1 scalar each.
  @Test(arguments: [("utf-16", 5, 7), ("utf-8", 7, 9), ("utf-32", 4, 6)])
  func matchRangesInARowDetailCountTheEncodingsUnits(encoding: String, start: Int, length: Int) throws {
    let text = Self.yaml.replacingOccurrences(of: "detail: STRASSE 5", with: "detail: \"😀 x 🎉Party\"")
    let s = try InProcessServer()
    open(s, text: text, encoding: encoding)
    let r = s.result("filterOutline", ["uri": "mem:v", "query": "🎉PARTY"])
    #expect(ids(s) == ["family", "cousins", "dan"])
    expectJSON(
      r["matches"],
      [
        [
          "index": 2, "id": "dan",
          "ranges": [["field": "detail", "start": .int(Int64(start)), "length": .int(Int64(length))]],
        ]
      ])
  }

  @Test func filterThenToggleThenClearRestoresTheUsersExpansion() throws {
    let s = try InProcessServer()
    open(s)
    _ = s.result("toggleSection", ["uri": "mem:v", "section": "work"])
    let before = ids(s)
    _ = s.result("filterOutline", ["uri": "mem:v", "query": "a"])
    _ = s.result("toggleSection", ["uri": "mem:v", "section": "friends"])
    let cleared = s.result("filterOutline", ["uri": "mem:v", "query": ""])
    #expect(ids(s) == before)
    #expect(cleared["matches"] == [])
    let none = s.result("filterOutline", ["uri": "mem:v", "query": "no such text"])
    #expect(none["total"] == 0)
    #expect(none["matches"] == [])
  }

  @Test func navigateFollowsTheTreeKeys() throws {
    let s = try InProcessServer()
    open(s)
    #expect(s.result("navigate", ["uri": "mem:v", "from": "friends", "key": "up"])["focus"] == "friends")
    let right = s.result("navigate", ["uri": "mem:v", "from": "friends", "key": "right"])
    #expect(right["focus"] == "friends")
    #expect(right["expanded"] == true)
    #expect(right["changes"] == [["kind": "insert", "start": 1, "count": 2]])
    #expect(s.result("navigate", ["uri": "mem:v", "from": "friends", "key": "right"])["focus"] == "alice")
    #expect(s.result("navigate", ["uri": "mem:v", "from": "alice", "key": "left"])["focus"] == "friends")
    #expect(s.result("navigate", ["uri": "mem:v", "from": "friends", "key": "end"])["focus"] == "work")
    #expect(s.result("navigate", ["uri": "mem:v", "from": "work", "key": "down"])["focus"] == "work")
    #expect(s.result("navigate", ["uri": "mem:v", "from": "alice", "key": ["type": "w"]])["focus"] == "work")
    #expect(s.result("navigate", ["uri": "mem:v", "from": "work", "key": ["type": "f"]])["focus"] == "friends")
    let siblings = s.result("navigate", ["uri": "mem:v", "from": "work", "key": "expandSiblings"])
    #expect(siblings["id"] == nil)
    #expect(siblings["updatedGroups"]?.arrayValue?.count == 2)
    #expect(s.errorCode("navigate", ["uri": "mem:v", "from": "nobody", "key": "down"]) == -32012)
    #expect(s.errorCode("navigate", ["uri": "mem:v", "from": "work", "key": "sideways"]) == -32602)
    #expect(s.result("getViewState", ["uri": "mem:v"])["focus"] == "work")
  }

  @Test func viewStateIsReadAndReplacedWhole() throws {
    let s = try InProcessServer()
    open(s)
    _ = s.result("toggleSection", ["uri": "mem:v", "section": "friends", "scrollTop": 2])
    let got = s.result("getViewState", ["uri": "mem:v"])
    #expect(got["expanded"] == ["friends"])
    #expect(got["scrollTop"] == 2)
    let set = s.result("setViewState", ["uri": "mem:v", "expanded": ["family", "nobody"], "focus": "mum"])
    #expect(
      set["changes"] == [["kind": "delete", "start": 1, "count": 2], ["kind": "insert", "start": 2, "count": 2]])
    #expect(s.result("getViewState", ["uri": "mem:v"])["expanded"] == ["family"])
    #expect(s.result("getViewState", ["uri": "mem:v"])["focus"] == "mum")
    #expect(s.errorCode("setViewState", ["uri": "mem:v", "expanded": "family"]) == -32602)
  }

  @Test func viewStateIsSavedAndRestoredForFiles() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vs-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("outline.yaml")
    try Self.yaml.replacingOccurrences(of: "title: Work", with: "title: Work\n    expanded: true")
      .write(to: file, atomically: true, encoding: .utf8)
    let uri = JSONValue.string(file.absoluteString)
    let state = dir.appendingPathComponent("state").path
    let a = try InProcessServer(arguments: ["--state-dir", state])
    a.initialize()
    _ = a.result("openOutline", ["uri": uri])
    _ = a.result("toggleSection", ["uri": uri, "section": "friends"])
    _ = a.result("toggleSection", ["uri": uri, "section": "work"])
    _ = a.result("closeOutline", ["uri": uri])
    _ = a.result("shutdown")
    #expect(a.finish() == 0)
    // The file changes: a new group, open by default, and a group gone.
    try Self.yaml.replacingOccurrences(of: "title: Work", with: "title: Work\n    expanded: true")
      .replacingOccurrences(of: "id: friends", with: "id: pals")
      .appending("\n  - id: new\n    title: New\n    expanded: true\n    rows: [{title: n}]\n")
      .write(to: file, atomically: true, encoding: .utf8)
    let b = try InProcessServer(arguments: ["--state-dir", state])
    b.initialize()
    _ = b.result("openOutline", ["uri": uri])
    // work stays closed as the user left it; new takes the file's value; friends left the file.
    #expect(b.result("getViewState", ["uri": uri])["expanded"] == ["new"])
  }

  @Test func aCorruptStateFileIsReportedAndIgnored() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vs-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("o.yaml")
    try Self.yaml.write(to: file, atomically: true, encoding: .utf8)
    let state = dir.appendingPathComponent("state")
    let a = try InProcessServer(arguments: ["--state-dir", state.path])
    a.initialize()
    _ = a.result("openOutline", ["uri": .string(file.absoluteString)])
    _ = a.result("toggleSection", ["uri": .string(file.absoluteString), "section": "friends"])
    _ = a.result("shutdown")
    #expect(a.finish() == 0)
    let records = try FileManager.default.contentsOfDirectory(atPath: state.path).filter { $0.hasSuffix(".json") }
    #expect(records.count == 1)
    try "{not json".write(to: state.appendingPathComponent(records[0]), atomically: true, encoding: .utf8)
    let b = try InProcessServer(arguments: ["--state-dir", state.path])
    b.initialize()
    _ = b.result("openOutline", ["uri": .string(file.absoluteString)])
    #expect(b.result("getViewState", ["uri": .string(file.absoluteString)])["expanded"] == [])
    _ = b.result("shutdown")
    #expect(b.finish() == 0)
    #expect(b.stderrText.contains("unreadable view state"))
  }

  @Test func anUnwritableStateDirectoryIsNotFatal() throws {
    let s = try InProcessServer(arguments: ["--state-dir", "/proc/outline-state"])
    let file = examplesDirectory().appendingPathComponent("contacts.yaml")
    s.initialize()
    _ = s.result("openOutline", ["uri": .string(file.absoluteString)])
    _ = s.result("toggleSection", ["uri": .string(file.absoluteString), "section": 0])
    _ = s.result("shutdown")
    #expect(s.finish() == 0)
    let path = file.resolvingSymlinksInPath().path
    #expect(
      s.stderrText.contains(
        "cannot save the view state of \(path): cannot create the directory /proc/outline-state: "
          + "No such file or directory"), "\(s.stderrText)")
  }

  @Test func aStateDirectoryUnderAFileIsReportedWithThePathAndTheReason() throws {
    let blocker = writeFixture("not a directory", name: "blocker")
    let s = try InProcessServer(arguments: ["--state-dir", blocker.path + "/state"])
    let file = examplesDirectory().appendingPathComponent("contacts.yaml")
    s.initialize()
    _ = s.result("openOutline", ["uri": .string(file.absoluteString)])
    _ = s.result("toggleSection", ["uri": .string(file.absoluteString), "section": 0])
    _ = s.result("shutdown")
    #expect(s.finish() == 0)
    #expect(
      s.stderrText.contains("cannot create the directory \(blocker.path)/state: Not a directory"), "\(s.stderrText)")
    #expect(!s.stderrText.contains("NSCocoaErrorDomain"))
  }
}

@Suite struct ViewStateSavingTests {
  @Test func aChangeJustBeforeTheEndOfInputIsSaved() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vs-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("o.yaml")
    try ViewStateTests.yaml.write(to: file, atomically: true, encoding: .utf8)
    let uri = JSONValue.string(file.absoluteString)
    let state = dir.appendingPathComponent("state").path
    let a = try InProcessServer(arguments: ["--state-dir", state])
    a.initialize()
    _ = a.result("openOutline", ["uri": uri])
    _ = a.result("toggleSection", ["uri": uri, "section": "family"])
    // No shutdown: the input just ends.
    #expect(a.finish() == 1)
    let b = try InProcessServer(arguments: ["--state-dir", state])
    b.initialize()
    _ = b.result("openOutline", ["uri": uri])
    #expect(b.result("getViewState", ["uri": uri])["expanded"] == ["family"])
  }
}

/// Contract corners of §6 and §8: group titles match filters, shown groups only, versions, targets.
extension ViewStateTests {
  @Test(arguments: [("utf-16", 3), ("utf-8", 5), ("utf-32", 2)])
  func filterByAGroupNameShowsItsWholeSubtreeAndListsTheGroup(encoding: String, start: Int) throws {
    // An astral character before the match: 2 UTF-16 units, 4 UTF-8 bytes, 1 scalar.
    let text = Self.yaml.replacingOccurrences(of: "title: Family", with: "title: 😀 Family")
    let s = try InProcessServer()
    open(s, text: text, encoding: encoding)
    let r = s.result("filterOutline", ["uri": "mem:v", "query": "family"])
    #expect(ids(s) == ["family", "cousins", "dan", "mum"])
    let rows = s.result("visibleRows", ["uri": "mem:v"])["rows"]?.arrayValue ?? []
    #expect(rows.filter { $0["kind"] == "group" }.allSatisfy { $0["expanded"] == true })
    // Only the group's own title matched: the rows it shows are not listed.
    expectJSON(
      r["matches"],
      [["index": 0, "id": "family", "ranges": [["field": "title", "start": .int(Int64(start)), "length": 6]]]])
  }

  @Test func whileFilteredASingleToggleClosesOnlyTheShownSiblings() throws {
    let s = try InProcessServer()
    s.initialize()
    _ = s.result("openOutline", ["uri": "mem:v", "text": .string(Self.yaml), "policy": "single"])
    _ = s.result("toggleSection", ["uri": "mem:v", "section": "work"])
    _ = s.result("filterOutline", ["uri": "mem:v", "query": "a"])
    #expect(ids(s) == ["friends", "alice", "family", "cousins", "dan", "mum"])
    _ = s.result("toggleSection", ["uri": "mem:v", "section": "friends", "expanded": false])
    let r = s.result("toggleSection", ["uri": "mem:v", "section": "friends", "expanded": true])
    #expect(r["updatedGroups"] == ["family", "friends"])
    let again = s.result("toggleSection", ["uri": "mem:v", "section": "friends", "expanded": true])
    #expect(again["changes"] == [] && again["version"] == r["version"])
    // Work, hidden by the filter, kept its state: it is open again once the filter clears.
    _ = s.result("filterOutline", ["uri": "mem:v", "query": ""])
    #expect(s.result("getViewState", ["uri": "mem:v"])["expanded"] == ["work"])
  }

  @Test func setViewStateThatTurnsOnlyAHeadersArrowAddsOneToTheVersion() throws {
    let s = try InProcessServer()
    s.initialize()
    let text = """
      expansion: single
      groups:
        - {id: g1, title: bravo, expanded: true}
        - {id: g4, title: delta}
      """
    #expect(s.result("openOutline", ["uri": "mem:e", "text": .string(text)])["version"] == 1)
    let r = s.result("setViewState", ["uri": "mem:e", "expanded": []])
    #expect(r["updatedGroups"] == ["g1"] && r["changes"] == [])
    #expect(r["version"] == 2)
    let rows = s.result("visibleRows", ["uri": "mem:e"])["rows"]?.arrayValue ?? []
    #expect(rows.map { $0["expanded"] } == [false, false])
    let r2 = s.result("setViewState", ["uri": "mem:e", "expanded": ["g4"], "focus": "g4"])
    #expect(r2["updatedGroups"] == ["g4"] && r2["version"] == 3)
  }

  @Test func navigateFromAHiddenItemNamesTheGroupItToggled() throws {
    let s = try InProcessServer()
    s.initialize()
    let text = "groups: [{id: p, title: P, groups: [{id: p2, title: P2, rows: [{title: x}]}]}]"
    _ = s.result("openOutline", ["uri": "mem:n", "text": .string(text)])
    let r = s.result("navigate", ["uri": "mem:n", "from": "p2", "key": "right"])
    #expect(r["id"] == "p" && r["expanded"] == true)
    #expect(r["updatedGroups"] == ["p"])
    #expect(r["focus"] == "p")
  }
}
