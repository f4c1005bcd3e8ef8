import Foundation
import JSONRPC
import OutlineTestSupport
import Testing

/// PROTOCOL §3 and §8 "Documents": opening, changing, closing, versions.
@Suite struct DocumentTests {
  @Test func aFileURIIsReadWithoutText() throws {
    let s = try InProcessServer.started()
    let url = writeFixture(smallOutline)
    let r = s.result("openOutline", ["uri": .string(url.absoluteString)])
    expectJSON(r, ["version": 1, "total": 5, "groupCount": 4, "rowCount": 3, "diagnostics": []])
  }

  @Test func aFileURIWithoutAPathOrOnAnotherHostIsRefusedByName() throws {
    let s = try InProcessServer.started()
    for uri in ["file://", "file:"] {
      let e = s.error("openOutline", ["uri": .string(uri)])
      #expect(e["code"] == -32602)
      #expect(e["message"] == .string("\"uri\" names no file: \(uri)"))
    }
    let far = s.error("openOutline", ["uri": "file://elsewhere/tmp/x.yaml"])
    #expect(far["code"] == -32013)
    #expect(far["message"]?.stringValue?.contains("elsewhere") == true)
    let url = writeFixture(smallOutline)
    for host in ["localhost", "LOCALHOST"] {
      #expect(s.result("openOutline", ["uri": .string("file://\(host)" + url.path)])["total"] == 5)
    }
    let slash = s.error("openOutline", ["uri": .string(url.absoluteString + "/")])
    #expect(slash["message"] == .string("cannot read \(url.path)/: a part of the path is not a directory"))
    let notDirectory = s.error("openOutline", ["uri": .string(url.absoluteString + "/x.yaml")])
    #expect(notDirectory["message"] == .string("cannot read \(url.path)/x.yaml: a part of the path is not a directory"))
  }

  @Test func textWinsOverTheFileOfAFileURI() throws {
    let s = try InProcessServer.started()
    let url = writeFixture(smallOutline)
    let r = s.open(url.absoluteString, "groups:\n  - title: Only\n")
    #expect(r["total"] == 1)
  }

  @Test func aNonFileURIWithoutTextIsInvalidParamsNamingText() throws {
    let s = try InProcessServer.started()
    let e = s.error("openOutline", ["uri": "untitled:1"])
    #expect(e["code"] == -32602)
    #expect(e["message"]?.stringValue?.contains("\"text\"") == true)
    #expect(s.error("openOutline", [:])["message"] == "\"uri\" is missing")
  }

  @Test func aMissingFileOrADirectoryIsFileErrorNamingThePath() throws {
    let s = try InProcessServer.started()
    let dir = temporaryDirectory()
    let missing = dir.appendingPathComponent("nope.yaml")
    let e1 = s.error("openOutline", ["uri": .string(missing.absoluteString)])
    #expect(e1["code"] == -32013)
    #expect(e1["message"]?.stringValue?.contains(missing.path) == true)
    let e2 = s.error("openOutline", ["uri": .string(dir.absoluteString)])
    #expect(e2["code"] == -32013)
    #expect(e2["message"]?.stringValue?.contains(dir.path) == true)
  }

  /// `yes` on a line with a CJK character and an emoji before it: the columns differ per encoding.
  @Test(arguments: [("utf-8", 31), ("utf-16", 27), ("utf-32", 26)])
  func invalidOutlineCarriesDiagnosticsInTheNegotiatedEncoding(_ encoding: String, _ column: Int64) throws {
    let s = try InProcessServer.started(encoding: encoding)
    let text = "groups:\n  - {title: 张😀, expanded: yes}\n"
    let e = s.error("openOutline", ["uri": "untitled:1", "text": .string(text)])
    #expect(e["code"] == -32011)
    let diagnostics = e["data"]?["diagnostics"]?.arrayValue ?? []
    #expect(diagnostics.count == 1)
    expectJSON(
      diagnostics.first?["range"],
      ["start": ["line": 1, "character": .int(column)], "end": ["line": 1, "character": .int(column + 3)]])
    #expect(diagnostics.first?["severity"] == 1)
    #expect(diagnostics.first?["code"] == "type")
    #expect(diagnostics.first?["source"] == "outline")
    #expect(s.errorCode("visibleRows", ["uri": "untitled:1"]) == -32010, "nothing was opened")
  }

  @Test func aByteOrderMarkBeforeAKeyOnLineZeroIsRead() throws {
    let s = try InProcessServer.started()
    let r = s.result("openOutline", ["uri": "untitled:bom", "text": "\u{FEFF}groups: []\ntitle: x\n"])
    #expect(r["diagnostics"] == [])
    let e = s.error("openOutline", ["uri": "untitled:dup", "text": "\u{FEFF}{groups: [], groups: []}"])
    expectJSON(
      e["data"]?["diagnostics"]?.arrayValue?.first?["range"],
      ["start": ["line": 0, "character": 13], "end": ["line": 0, "character": 19]])
  }

  /// libyaml ends a line at U+2028 in a quoted scalar; LSP does not.
  @Test(arguments: ["utf-8", "utf-16", "utf-32"])
  func aDiagnosticAfterALineSeparatorIsOnItsLSPLine(_ encoding: String) throws {
    let s = try InProcessServer.started(encoding: encoding)
    let r = s.result("openOutline", ["uri": "untitled:ls", "text": "groups:\n  - title: \"x\u{2028}\"\n    foo: 1\n"])
    expectJSON(
      r["diagnostics"]?.arrayValue?.first?["range"],
      ["start": ["line": 2, "character": 4], "end": ["line": 2, "character": 7]])
  }

  @Test func reopeningWithBadTextKeepsTheOldOutline() throws {
    let s = try InProcessServer.started()
    s.open("untitled:1", smallOutline)
    let before = s.rows("untitled:1")
    #expect(s.errorCode("openOutline", ["uri": "untitled:1", "text": "groups: [\n"]) == -32011)
    expectJSON(.array(s.rows("untitled:1")), .array(before))
    #expect(s.version("untitled:1") == 1)
  }

  @Test func reopeningKeepsTheExpansionByIdAndTheVersionGrows() throws {
    let s = try InProcessServer.started()
    s.open("untitled:1", smallOutline)
    _ = s.result("toggleSection", ["uri": "untitled:1", "section": "a1"])
    _ = s.result("toggleSection", ["uri": "untitled:1", "section": "b"])
    let before = s.visibleIDs("untitled:1")
    #expect(s.open("untitled:1", smallOutline)["changes"] == [], "a re-open that changes nothing")
    let r = s.open("untitled:1", smallOutline + "  - id: d\n    title: D\n")
    #expect(r["version"] == 4)
    let after = s.visibleIDs("untitled:1")
    #expect(after == ["a", "a1", "r1", "r2", "b", "r3", "c", "d"])
    // A re-open answers with the changes from the list the host had.
    expectReplay(r["changes"], from: before, to: after)
    #expect(r["changes"] != nil)
    // Under another policy the whole list is replaced.
    let single = s.open("untitled:1", smallOutline, ["policy": "single"])
    expectReplay(single["changes"], from: after, to: s.visibleIDs("untitled:1"))
  }

  @Test func aFirstOpenHasNoChanges() throws {
    let s = try InProcessServer.started()
    #expect(s.open("untitled:2", smallOutline)["changes"] == nil)
  }

  @Test func reopeningTheSameTextChangesNothingAndKeepsTheFilter() throws {
    // Versions: a write that changes nothing a host can see leaves the version;
    // a filter lasts until it is cleared or the outline is closed.
    let s = try InProcessServer.started()
    s.open("untitled:1", smallOutline)
    _ = s.result("filterOutline", ["uri": "untitled:1", "query": "r3"])
    let filtered = s.visibleIDs("untitled:1")
    let version = s.version("untitled:1")
    let r = s.open("untitled:1", smallOutline)
    #expect(r["version"]?.intValue == version)
    #expect(s.visibleIDs("untitled:1") == filtered)
    _ = s.result("filterOutline", ["uri": "untitled:1", "query": ""])
    #expect(s.visibleIDs("untitled:1") != filtered)
  }

  @Test func reopeningWithTheSamePolicyOrALayoutKeepsFocusAndVersion() throws {
    let s = try InProcessServer.started()
    s.open("untitled:1", smallOutline)
    _ = s.result("setViewState", ["uri": "untitled:1", "expanded": ["a"], "focus": "r1", "scrollTop": 1])
    let version = s.version("untitled:1")
    for extra: [String: JSONValue] in [["policy": "multiple"], ["layout": [:]], ["layout": ["width": 80]]] {
      let r = s.open("untitled:1", smallOutline, extra)
      #expect(r["version"]?.intValue == version, "\(extra)")
      let view = s.result("getViewState", ["uri": "untitled:1"])
      #expect(view["focus"] == "r1")
      #expect(view["scrollTop"] == 1)
    }
    // Another policy rebuilds, and still keeps focus and scroll.
    _ = s.open("untitled:1", smallOutline, ["policy": "single"])
    #expect(s.result("getViewState", ["uri": "untitled:1"])["focus"] == "r1")
  }

  @Test func pastAThousandDiagnosticsTheLastCountsTheRest() throws {
    let s = try InProcessServer.started()
    let rows = (0..<1_500).map { "      - {title: r\($0), zz: 1}\n" }.joined()
    let r = s.open("untitled:many", "groups:\n  - title: G\n    rows:\n" + rows)
    let diagnostics = try #require(r["diagnostics"]?.arrayValue)
    #expect(diagnostics.count == 1_000)
    #expect(diagnostics.last?["code"] == "too-many-diagnostics")
    #expect(diagnostics.last?["severity"] == 2)
    #expect(diagnostics.last?["message"] == "501 more diagnostics are not listed (only the first 999 are)")
  }

  @Test func thePolicyParamWinsOverTheFilesExpansion() throws {
    let s = try InProcessServer.started()
    s.open("untitled:single", "expansion: single\n" + smallOutline, ["policy": "multiple"])
    #expect(s.result("expandAll", ["uri": "untitled:single"])["expanded"] == true)
    s.open("untitled:multiple", smallOutline, ["policy": "single"])
    #expect(s.errorCode("expandAll", ["uri": "untitled:multiple"]) == -32602)
    #expect(s.error("openOutline", ["uri": "untitled:x", "text": "", "policy": "some"])["code"] == -32602)
  }

  @Test func aSinglePolicyFileOpeningTwoSiblingsGetsAWarningAndOnlyTheFirstOpens() throws {
    let s = try InProcessServer.started()
    let text = """
      expansion: single
      groups:
        - id: x
          title: X
          expanded: true
          rows: [{id: x1, title: X1}]
        - id: y
          title: Y
          expanded: true
          rows: [{id: y1, title: Y1}]

      """
    let r = s.open("untitled:1", text)
    let diagnostics = r["diagnostics"]?.arrayValue ?? []
    #expect(diagnostics.count == 1)
    #expect(diagnostics.first?["code"] == "single-policy")
    #expect(diagnostics.first?["severity"] == 2)
    // It marks the group's first line (its whole mapping would mark its rows too).
    #expect(
      diagnostics.first?["range"]
        == ["start": ["line": 6, "character": 4], "end": ["line": 6, "character": 9]])
    #expect(s.visibleIDs("untitled:1") == ["x", "x1", "y"])
  }

  @Test func layoutPrecedenceIsFileThenOpenThenSetLayoutWhichSurvivesChangeOutline() throws {
    let s = try InProcessServer.started()
    let text = "layout: {headerHeight: 3, rowHeight: 4}\n" + smallOutline
    s.open("untitled:1", text, ["layout": ["headerHeight": 2]])
    var heights = s.result("rowHeights", ["uri": "untitled:1"])["heights"]
    #expect(heights == [2, 2, 4, 2, 2], "file rowHeight 4, open headerHeight 2")
    _ = s.result("setLayout", ["uri": "untitled:1", "headerHeight": 5])
    heights = s.result("rowHeights", ["uri": "untitled:1"])["heights"]
    #expect(heights == [5, 5, 4, 5, 5])
    let changed = s.result(
      "changeOutline",
      ["uri": "untitled:1", "text": .string("layout: {headerHeight: 7, rowHeight: 6}\n" + smallOutline)])
    #expect(changed["applied"] == true)
    heights = s.result("rowHeights", ["uri": "untitled:1"])["heights"]
    #expect(heights == [5, 5, 6, 5, 5], "setLayout wins; the new file's rowHeight applies")
  }

  @Test func changeOutlineAppliesGoodTextAndKeepsTheLastGoodOneOnErrors() throws {
    let s = try InProcessServer.started()
    s.open("untitled:1", smallOutline)
    let good = s.result(
      "changeOutline",
      ["uri": "untitled:1", "text": "groups:\n  - {id: a, title: A, expanded: true, rows: [{id: r2, title: R2}]}\n"])
    expectJSON(
      good,
      [
        "applied": true, "version": 2, "diagnostics": [],
        // `a` itself changed (its counts), so the common prefix is empty.
        "changes": [["kind": "delete", "start": 0, "count": 5], ["kind": "insert", "start": 0, "count": 2]],
      ])
    #expect(s.visibleIDs("untitled:1") == ["a", "r2"])
    let bad = s.result("changeOutline", ["uri": "untitled:1", "text": "groups:\n  - title: [\n"])
    #expect(bad["applied"] == false)
    #expect(bad["version"] == 2)
    #expect(bad["changes"] == [])
    #expect(bad["diagnostics"]?.arrayValue?.first?["severity"] == 1)
    #expect(s.visibleIDs("untitled:1") == ["a", "r2"])
    #expect(s.version("untitled:1") == 2)
  }

  /// PROTOCOL leaves the change list of `changeOutline` open beyond "gives the new list";
  /// the project sends one delete and one insert between the common prefix and suffix.
  @Test func ambiguousChangeOutlineSendsOneDeleteAndOneInsertBetweenPrefixAndSuffix() throws {
    let s = try InProcessServer.started()
    s.open("untitled:1", smallOutline)
    let old = s.visibleIDs("untitled:1")
    let r = s.result(
      "changeOutline",
      ["uri": "untitled:1", "text": .string(smallOutline.replacingOccurrences(of: "title: B", with: "title: B2"))])
    expectJSON(
      r["changes"], [["kind": "delete", "start": 3, "count": 1], ["kind": "insert", "start": 3, "count": 1]])
    let new = s.visibleIDs("untitled:1")
    #expect(old == new)
    // An unchanged text changes nothing, and the version stays.
    let same = s.result(
      "changeOutline",
      ["uri": "untitled:1", "text": .string(smallOutline.replacingOccurrences(of: "title: B", with: "title: B2"))])
    #expect(same["changes"] == [])
    #expect(same["version"] == r["version"])
  }

  @Test func changeOutlineKeepsTheUsersStateForOldIdsAndTheFilesForNewOnes() throws {
    let s = try InProcessServer.started()
    s.open("untitled:1", smallOutline)
    _ = s.result("toggleSection", ["uri": "untitled:1", "section": "a", "expanded": false])
    // The new text says a is expanded (user closed it: stays closed) and b expanded (user
    // left it closed: stays closed); the new group n is expanded in the file: open.
    let text =
      smallOutline.replacingOccurrences(of: "title: B\n", with: "title: B\n    expanded: true\n")
      + "  - id: n\n    title: N\n    expanded: true\n    rows: [{id: n1, title: N1}]\n"
    let r = s.result("changeOutline", ["uri": "untitled:1", "text": .string(text)])
    #expect(r["applied"] == true)
    #expect(s.visibleIDs("untitled:1") == ["a", "b", "c", "n", "n1"])
  }

  @Test func closeOutlineAnswersNullAndForgetsTheURI() throws {
    let s = try InProcessServer.started()
    s.open("untitled:1", smallOutline)
    #expect(s.result("closeOutline", ["uri": "untitled:1"]) == .null)
    #expect(s.errorCode("visibleRows", ["uri": "untitled:1"]) == -32010)
    #expect(s.errorCode("closeOutline", ["uri": "untitled:1"]) == -32010)
    #expect(s.open("untitled:1", smallOutline)["version"] == 1, "a fresh open starts again at 1")
  }

  /// The other params each method needs, so only the uri is wrong.
  static let unknownURIParams: [String: JSONValue] = [
    "changeOutline": ["text": "groups: []"], "closeOutline": [:], "toggleSection": ["section": "a"],
    "expandAll": [:], "collapseAll": [:], "visibleRows": [:], "rowAtOffset": ["y": 0],
    "setLayout": ["width": 40], "rowHeights": [:],
  ]

  @Test(arguments: unknownURIParams.keys.sorted())
  func everyMethodOnAnUnknownURIIsUnknownOutline(_ method: String) throws {
    let s = try InProcessServer.started()
    s.open("untitled:open", smallOutline)
    var params = Self.unknownURIParams[method]?.objectValue ?? [:]
    params["uri"] = "untitled:other"
    let e = s.error(method, .object(params))
    #expect(e["code"] == -32010)
    #expect(e["message"]?.stringValue?.contains("untitled:other") == true)
  }

  @Test func versionStartsAt1GrowsWithChangesAndNotWithReadsOrFailedWrites() throws {
    let s = try InProcessServer.started()
    let uri: JSONValue = "untitled:1"
    #expect(s.open("untitled:1", smallOutline)["version"] == 1)
    _ = s.result("visibleRows", ["uri": uri])
    _ = s.result("rowAtOffset", ["uri": uri, "y": 2])
    _ = s.result("rowHeights", ["uri": uri])
    #expect(s.version("untitled:1") == 1, "reads")
    #expect(s.errorCode("toggleSection", ["uri": uri, "section": "r2"]) == -32012)
    #expect(s.errorCode("setLayout", ["uri": uri, "width": -1]) == -32602)
    _ = s.result("changeOutline", ["uri": uri, "text": "groups: [\n"])
    #expect(s.version("untitled:1") == 1, "failed writes")
    #expect(s.result("toggleSection", ["uri": uri, "section": "a1"])["version"] == 2)
    #expect(s.result("setLayout", ["uri": uri, "width": 40])["version"] == 3)
    #expect(s.result("setLayout", ["uri": uri, "width": 40])["version"] == 3, "same values")
    #expect(s.result("collapseAll", ["uri": uri])["version"] == 4)
    #expect(s.result("collapseAll", ["uri": uri])["version"] == 4, "nothing to close")
  }

  @Test func aNewTextThatChangesNothingShownAnswersNoChangeAndKeepsTheVersion() throws {
    let s = try InProcessServer.started()
    let text = contactsText()
    let opened = s.open("mem:c", text)
    let rows = s.rows("mem:c")
    // The user keeps Family closed; the new text opens it by default.
    #expect(rows.first { $0["id"] == "family" }?["expanded"] == false)
    let defaultOpen = text.replacingOccurrences(of: "title: Family\n", with: "title: Family\n    expanded: true\n")
    #expect(defaultOpen != text)
    var r = s.result("changeOutline", ["uri": "mem:c", "text": .string(defaultOpen)])
    #expect(r["applied"] == true && r["changes"] == [] && r["version"] == opened["version"])
    // A row inside a closed group changes its title.
    let renamed = defaultOpen.replacingOccurrences(of: "title: Free Prizes 4U", with: "title: Free Prizes")
    #expect(renamed != defaultOpen)
    r = s.result("changeOutline", ["uri": "mem:c", "text": .string(renamed)])
    #expect(r["changes"] == [] && r["version"] == opened["version"])
    // Re-opening the uri is the same write.
    r = s.open("mem:c", text)
    #expect(r["version"] == opened["version"])
    expectJSON(.array(s.rows("mem:c")), .array(rows))
  }
}
