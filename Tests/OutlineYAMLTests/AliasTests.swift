import OutlineModel
import OutlineYAML
import Testing

@Suite struct AliasTests {
  @Test func aliasesAreFollowed() throws {
    let doc = try expectDocument(
      """
      groups:
        - title: Team
          rows: &common
            - {title: Alice, data: &x {level: 3}}
            - {title: Bob, data: *x}
        - title: Copy
          rows: *common
      """)
    #expect(doc.groups[1].rows.map(\.title) == ["Alice", "Bob"])
    #expect(doc.groups[1].rows[1].data == .object([("level", .int(3))]))
  }

  @Test func wholeGroupItemsByAlias() throws {
    let doc = try expectDocument(
      """
      groups:
        - &g
          title: Shared
          rows: [{title: r}]
        - title: Holder
          groups: [*g, *g]
      """)
    #expect(doc.groups[1].groups.map(\.title) == ["Shared", "Shared"])
    // An item reached through an alias is known by the alias.
    #expect(
      doc.groups[1].groups[1].source == SourceRange(start: .init(line: 5, column: 17), end: .init(line: 5, column: 19)))
  }

  @Test func anAliasedIdIsADuplicateAtTheAlias() throws {
    try expectDiagnostics(
      "groups:\n  - &g {id: one, title: A}\n  - *g\n",
      [#"2:4-2:6 error duplicate-id: duplicate id "one""#])
  }

  @Test func anErrorInAnAliasedNodeIsReportedOnce() throws {
    try expectDiagnostics(
      "groups:\n  - &g {title: A, expanded: maybe}\n  - *g\n  - *g\n",
      [#"1:28-1:33 error type: "expanded" must be true or false, found "maybe""#])
  }

  @Test func undefinedAlias() throws {
    try expectDiagnostics(
      "groups: *nowhere\n", [#"0:8-0:16 error syntax: undefined alias "nowhere""#])
  }

  @Test func maxNodesCountsExpandedAliases() throws {
    var options = OutlineLoader.Options()
    options.maxNodes = 20
    // 1 root + 2 keys... the second alias pushes the expanded count past 20.
    try expectDiagnostics(
      """
      a: &a [1, 2, 3, 4, 5]
      b: *a
      c: *a
      """,
      [#"2:3-2:5 error too-many-nodes: alias "a" expands the document past 20 nodes"#], options: options)
  }

  @Test func billionLaughsIsRefusedQuickly() throws {
    var yaml = "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
    for level in 1...9 {
      let refs = Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ", ")
      yaml += "a\(level): &a\(level) [\(refs)]\n"
    }
    yaml += "groups: []\n"
    // The work is counted in events: `shouldCancel` is polled every 4096 of
    // them, replayed ones included, so no poll means no alias was expanded.
    let (result, polls) = try loadCountingPolls(yaml)
    #expect(polls == 0, "refused after \(polls * 4096) events or more")
    #expect(result.document == nil)
    #expect(
      result.diagnostics.map(render) == [
        #"7:9-7:12 error too-many-nodes: alias "a6" expands the document past 10000000 nodes"#
      ])
  }

  @Test func deepFlowNestingStopsAtTheLimit() throws {
    let depth = 20_000
    let yaml = "groups: " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "\n"
    let (result, polls) = try loadCountingPolls(yaml)
    #expect(polls == 0, "refused after \(polls * 4096) events or more, not at level 257")
    #expect(
      result.diagnostics.map(render) == [
        "0:263-0:264 error too-deep: the document nests deeper than 256 levels"
      ])
  }

  /// An alias used where the outline reads it is replayed event by event; those
  /// events are counted for `shouldCancel` as the file's own are, so a load made
  /// long by aliases (a few thousand live events here, 48,000 replayed) can be stopped.
  @Test func replayedAliasesArePolledForCancellation() throws {
    let rows = (0..<300).map { "{title: r\($0)}" }.joined(separator: ", ")
    let yaml =
      "title: &t Aliased\nx-rows: &r [\(rows)]\ngroups:\n"
      + (0..<40).map { "  - {title: g\($0), rows: *r}\n" }.joined()
    let (result, polls) = try loadCountingPolls(yaml)
    #expect(result.document?.groups.map(\.rows.count) == Array(repeating: 300, count: 40))
    // 48,000 replayed events and about 1,900 live ones: one poll per 4096.
    #expect((11...13).contains(polls), "\(polls) polls for about 50,000 events")
    var asked = 0
    #expect(throws: CancellationError.self) {
      _ = try OutlineLoader.load(
        Array(yaml.utf8),
        shouldCancel: {
          asked += 1; return true
        })
    }
    #expect(asked == 1)
  }

  /// Through a run of aliases to a scalar, events alternate between read and
  /// replayed; both count toward the same polls, which keep coming at one per
  /// 4096 events however the two interleave.
  @Test func aRunOfAliasesIsPolledAllAlong() throws {
    let aliases = Array(repeating: "*a", count: 20_000).joined(separator: ", ")
    let (result, polls) = try loadCountingPolls("groups: [{title: &a G, rows: [{title: R, data: [\(aliases)]}]}]\n")
    #expect(result.document?.groups.first?.rows.first?.data == .array(Array(repeating: .string("G"), count: 20_000)))
    // 20,000 aliases read and 20,000 scalars replayed, and about 25 other events.
    #expect((9...10).contains(polls), "\(polls) polls for about 40,000 events")
  }

  /// Progress follows the bytes read, not the events: however many events
  /// aliases expand to (half a million here, about 120 polls), it is reported
  /// at most about 100 times.
  @Test func progressIsReportedAtMostAboutAHundredTimesHoweverManyEventsAliasesMake() throws {
    let ones = Array(repeating: "1", count: 1000).joined(separator: ", ")
    let aliases = String(repeating: ", *r", count: 500)
    let yaml = "groups: [{title: G, rows: [{title: R, data: [&r [\(ones)]\(aliases)]}]}]\n"
    var fractions: [Double] = []
    let result = try OutlineLoader.load(Array(yaml.utf8), progress: { fractions.append($0) })
    #expect(result.diagnostics.map(render) == [])
    #expect(fractions.count <= 102, "\(fractions.count) reports")
    #expect(fractions.last == 1)
  }

  /// An alias is charged exactly its node's expanded size: root 1, the keys groups, x
  /// and y 3, [] 1, x's sequence 3, and the alias 3 again: 11 nodes in all.
  @Test func anAliasIsChargedItsExpandedSizeExactly() throws {
    let yaml = "groups: []\nx: &a [1, 2]\ny: *a\n"
    var options = OutlineLoader.Options()
    options.maxNodes = 11
    try expectDiagnostics(
      yaml, [#"1:0-1:1 warning unknown-key: unknown key "x""#, #"2:0-2:1 warning unknown-key: unknown key "y""#],
      options: options)
    options.maxNodes = 10
    try expectDiagnostics(
      yaml, [#"2:3-2:5 error too-many-nodes: alias "a" expands the document past 10 nodes"#], options: options)
  }

  @Test func depthCountsAliasesExpanded() throws {
    var options = OutlineLoader.Options()
    options.maxDepth = 4
    // root(1) > a(2) > [3] > [4]: fine; under c (level 3), *a adds 3 more levels.
    try expectDiagnostics(
      "a: &a [[[x]]]\nb: *a\nc: [[*a]]\n",
      [#"2:5-2:7 error too-deep: alias "a" nests the document deeper than 4 levels"#], options: options)
  }

  /// An anchored scalar is replayed whole however long it is, the first one
  /// recorded included (it may be longer than all the room kept so far).
  @Test func aLongAnchoredScalarIsReplayedWhole() throws {
    let long = String(repeating: "x", count: 1000)
    let doc = try expectDocument("groups:\n  - title: &t \(long)\n  - title: *t\n")
    #expect(doc.groups.map(\.title) == [long, long])
  }

  @Test func anAliasInsideItsOwnAnchor() throws {
    try expectDiagnostics(
      "groups: &g [*g]\n", [#"0:12-0:14 error syntax: alias "g" refers to a node that contains it"#])
  }
}

/// Loads `yaml`, counting the polls of `shouldCancel`: one per 4096 events read, live or replayed.
func loadCountingPolls(_ yaml: String) throws -> (LoadResult, polls: Int) {
  var polls = 0
  let count: () -> Bool = {
    polls += 1
    return false
  }
  let result = try OutlineLoader.load(Array(yaml.utf8), shouldCancel: count)
  return (result, polls)
}
