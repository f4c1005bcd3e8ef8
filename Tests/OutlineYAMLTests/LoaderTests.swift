import OutlineModel
import OutlineYAML
import Testing

@Suite struct DocumentTests {
  @Test func readsTheContractExample() throws {
    let doc = try expectDocument(
      """
      title: Contacts
      expansion: single
      layout:
        headerHeight: 1
        rowHeight: auto
      groups:
        - id: friends
          title: Friends
          expanded: true
          badge: "★"
          order: activeFirst
          groups:
            - title: Close
          rows:
            - id: alice
              title: Alice
              detail: Working from Lisbon this week
              icon: avatar-3
              active: false
              emphasis: true
              data: {any: thing}
            - title: Bob
      """)
    #expect(doc.title == "Contacts")
    #expect(doc.expansion == .single)
    #expect(doc.layout.headerHeight == .fixed(1))
    #expect(doc.layout.rowHeight == .auto)
    let friends = try #require(doc.groups.first)
    #expect(friends.id == "friends")
    #expect(friends.title == "Friends")
    #expect(friends.expanded == true)
    #expect(friends.badge == "★")
    #expect(friends.order == .activeFirst)
    #expect(friends.groups.map(\.title) == ["Close"])
    // An item's source is its mapping node: from its first key to where the
    // next token starts (libyaml's end mark; the text's last mapping ends at
    // column 0 of the line after it).
    #expect(friends.source == SourceRange(start: .init(line: 6, column: 4), end: .init(line: 22, column: 0)))
    #expect(
      friends.rows == [
        RowSpec(
          id: "alice", title: "Alice", detail: "Working from Lisbon this week", icon: "avatar-3", active: false,
          emphasis: true, data: .object([("any", .string("thing"))]),
          source: SourceRange(start: .init(line: 14, column: 8), end: .init(line: 21, column: 6))),
        RowSpec(title: "Bob", source: SourceRange(start: .init(line: 21, column: 8), end: .init(line: 22, column: 0))),
      ])
  }

  @Test func stringFieldsKeepTheTextAsWritten() throws {
    let doc = try expectDocument(
      """
      title: 012
      groups:
        - title: no
          badge: 1:20
          rows:
            - {title: ~, detail: null, icon: "true", id: 0x1F}
            - {title: 'yes', detail: 1.5e3}
      """)
    #expect(doc.title == "012")
    #expect(doc.groups[0].title == "no")
    #expect(doc.groups[0].badge == "1:20")
    #expect(doc.groups[0].rows[0].title == "~")
    #expect(doc.groups[0].rows[0].detail == "null")
    #expect(doc.groups[0].rows[0].icon == "true")
    #expect(doc.groups[0].rows[0].id == "0x1F")
    #expect(doc.groups[0].rows[1].title == "yes")
    #expect(doc.groups[0].rows[1].detail == "1.5e3")
  }

  @Test func flowItemSourceIsFromBraceToBrace() throws {
    let doc = try expectDocument("groups: [ {title: A} ]\n")
    #expect(doc.groups[0].source == SourceRange(start: .init(line: 0, column: 10), end: .init(line: 0, column: 20)))
  }

  /// Each item's source is its mapping node, libyaml's start and end marks:
  /// a block mapping from its first key (or its anchor) to where the next
  /// token starts, so the comments and blank lines after it are in it, and
  /// the `- ` of the next item is its parent's.
  @Test func itemSourcesAreTheirMappingNodes() throws {
    let doc = try expectDocument(
      """
      groups:
        - title: G
          rows:
            - title: A
              detail: x

            # a comment
            - &b
              title: B
            - {title: C}
        - title: H
      """ + "\n")
    func range(_ a: Int, _ b: Int, _ c: Int, _ d: Int) -> SourceRange {
      SourceRange(start: .init(line: a, column: b), end: .init(line: c, column: d))
    }
    #expect(doc.groups.map(\.source) == [range(1, 4, 10, 2), range(10, 4, 11, 0)])
    #expect(doc.groups[0].rows.map(\.source) == [range(3, 8, 7, 6), range(7, 8, 9, 6), range(9, 8, 9, 18)])
  }

  @Test func layoutFields() throws {
    let doc = try expectDocument(
      """
      layout:
        unit: px
        width: 320.5
        narrowWidth: 7
        wideWidth: 14
        lineHeight: 18
        headerHeight: 24
        rowHeight: auto
        indent: 12
        padding: {top: 2, bottom: 3, left: 4, right: 5}
        maxLines: 3
        tabSize: 4
      groups: []
      """)
    var expected = LayoutOverrides()
    expected.unit = .px
    expected.width = 320.5
    expected.narrowWidth = 7
    expected.wideWidth = 14
    expected.lineHeight = 18
    expected.headerHeight = .fixed(24)
    expected.rowHeight = .auto
    expected.indent = 12
    expected.paddingTop = 2
    expected.paddingBottom = 3
    expected.paddingLeft = 4
    expected.paddingRight = 5
    expected.maxLines = 3
    expected.tabSize = 4
    #expect(doc.layout == expected)
  }

  @Test func layoutRangesAreChecked() throws {
    try expectDiagnostics(
      """
      layout:
        unit: em
        width: 0
        lineHeight: -1
        rowHeight: tall
        maxLines: 0
        tabSize: 2.5
        padding: {top: "1"}
      """,
      [
        #"1:8-1:10 error type: "unit" must be cell, px or font, found "em""#,
        #"2:9-2:10 error type: "width" must be a number greater than 0 and <= 1000000, found "0""#,
        #"3:14-3:16 error type: "lineHeight" must be a number >= 0 and <= 1000000, found "-1""#,
        #"4:13-4:17 error type: "rowHeight" must be a number >= 0 or auto, found "tall""#,
        #"5:12-5:13 error type: "maxLines" must be an integer >= 1, found "0""#,
        #"6:11-6:14 error type: "tabSize" must be an integer >= 1, found "2.5""#,
        #"7:17-7:20 error type: "top" must be a number >= 0 and <= 1000000, found "1""#,
      ])
  }

  @Test func layoutReadsAFont() throws {
    let doc = try expectDocument(
      "layout:\n  unit: font\n  lineHeight: 20\n  font:\n    family: [Noto Sans, Noto Sans CJK SC]\n"
        + "    size: 13.5\n    weight: 700\n    style: italic\ngroups: []\n")
    #expect(doc.layout.unit == .font)
    #expect(
      doc.layout.font
        == FontDescription(families: ["Noto Sans", "Noto Sans CJK SC"], size: 13.5, weight: 700, style: .italic))
    #expect(try expectDocument("layout: {font: {family: [A], size: 14}}\ngroups: []").layout.font?.weight == 400)
  }

  @Test func aFontNeedsFamiliesAndASize() throws {
    try expectDiagnostics(
      "layout:\n  font: {size: 14}",
      [#"1:8-1:9 error missing-font-family: "font" has no "family" (a sequence of family names)"#])
    try expectDiagnostics(
      "layout:\n  font: {family: [A]}",
      [#"1:8-1:9 error missing-font-size: "font" has no "size""#])
    try expectDiagnostics(
      "layout:\n  font: {family: [A], size: 0, weight: 1000, style: oblique}",
      [
        #"1:28-1:29 error type: "size" must be a number greater than 0 and <= 10000, found "0""#,
        #"1:39-1:43 error type: "weight" must be an integer from 100 to 900, found "1000""#,
        #"1:52-1:59 error type: "style" must be normal or italic, found "oblique""#,
      ])
  }

  @Test func emptyValuesAreAbsent() throws {
    let doc = try expectDocument("title:\nlayout:\ngroups:\n  - title: A\n    badge:\n    rows:\n")
    #expect(doc == OutlineDocument(groups: [GroupSpec(title: "A", source: doc.groups[0].source)]))
  }

  @Test func jsonLoadsToo() throws {
    let doc = try expectDocument(
      """
      {"title": "T", "groups": [{"id": "g", "title": "G", "expanded": true,
        "rows": [{"title": "R", "active": false, "data": {"n": 1, "s": "x", "l": [true, null, 2.5]}}]}]}
      """)
    #expect(doc.title == "T")
    #expect(doc.groups[0].expanded == true)
    let row = doc.groups[0].rows[0]
    #expect(row.active == false)
    // A quoted JSON string stays a string; bare JSON literals follow the core schema.
    #expect(
      row.data
        == .object([("n", .int(1)), ("s", .string("x")), ("l", .array([.bool(true), .null, .double(2.5)]))]))
  }

  @Test func byteOrderMarkIsAccepted() throws {
    let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("groups:\n  - title: A\n".utf8)
    let result = try OutlineLoader.load(bytes)
    #expect(result.diagnostics.isEmpty)
    #expect(result.document?.groups.first?.source.start == SourcePosition(line: 1, column: 4))
  }

  /// libyaml never sees the mark: a first line that is a mapping key still
  /// parses, and columns on line 0 do not count the mark.
  @Test func byteOrderMarkBeforeAKeyOnLineZero() throws {
    let doc = try expectDocument("\u{FEFF}title: x\ngroups: []\n")
    #expect(doc.title == "x")
    try expectDiagnostics(
      "\u{FEFF}foo: 1\ngroups: []\n", [#"0:0-0:3 warning unknown-key: unknown key "foo""#])
    try expectDiagnostics(
      "\u{FEFF}{groups: [], groups: []}\n", [#"0:13-0:19 error duplicate-key: duplicate key "groups""#])
  }

  @Test func byteOrderMarkBeforeErrorsFoundOutsideTheParser() throws {
    // The offset counts the mark's 3 bytes; the column does not.
    let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("title: é".utf8) + [0xC3, 0x28] + Array("\ngroups: []\n".utf8)
    let result = try OutlineLoader.load(bytes)
    try expectSameThroughFile(bytes, result)
    #expect(
      result.diagnostics.map(render) == [
        "0:8-0:9 error invalid-utf8: the file is not valid UTF-8: byte 0xC3 at offset 12"
      ])
    try expectDiagnostics(
      "\u{FEFF}groups:\n  - title: x\n\trows: []\n",
      [#"2:0-2:1 error tab-indentation: a tab is used as indentation; indent with spaces"#])
    try expectDiagnostics(
      "\u{FEFF}\trows: []\n",
      [#"0:0-0:1 error tab-indentation: a tab is used as indentation; indent with spaces"#])
  }
}

@Suite struct ScalarTests {
  @Test func booleansArePlainLowercaseTrueOrFalse() throws {
    try expectDiagnostics(
      """
      groups:
        - title: A
          expanded: yes
          rows:
            - {title: a, active: "true"}
            - {title: b, active: True}
            - {title: c, emphasis: [true]}
      """,
      [
        #"2:14-2:17 error type: "expanded" must be true or false, found "yes""#,
        #"4:27-4:33 error type: "active" must be true or false, found "true""#,
        #"5:27-5:31 error type: "active" must be true or false, found "True""#,
        #"6:29-6:30 error type: "emphasis" must be true or false, found a sequence"#,
      ])
  }

  /// A wrong value is quoted in the message as written up to 40 characters;
  /// a longer one is cut after 40, with an ellipsis.
  @Test func aWrongValueIsQuotedUpToFortyCharacters() throws {
    let forty = String(repeating: "y", count: 40)
    try expectDiagnostics(
      "groups:\n  - {title: A, expanded: \(forty)}\n  - {title: B, expanded: \(forty)z}\n",
      [
        #"1:25-1:65 error type: "expanded" must be true or false, found "\#(forty)""#,
        #"2:25-2:66 error type: "expanded" must be true or false, found "\#(forty)…""#,
      ])
  }

  @Test func enumerations() throws {
    try expectDiagnostics(
      "expansion: accordion\ngroups:\n  - {title: A, order: random}\n",
      [
        #"0:11-0:20 error type: "expansion" must be multiple or single, found "accordion""#,
        #"2:22-2:28 error type: "order" must be file, activeFirst or title, found "random""#,
      ])
    let doc = try expectDocument("groups:\n  - {title: A, order: title}\n  - {title: B, order: 'file'}\n")
    #expect(doc.groups.map(\.order) == [.title, .file])
  }

  @Test func stringFieldsRejectCollections() throws {
    try expectDiagnostics(
      "title: {a: 1}\ngroups:\n  - title:\n      - x\n",
      [
        #"0:7-0:8 error type: "title" must be a string, found a mapping"#,
        #"2:4-2:9 error missing-title: group has no "title""#,
        #"3:6-3:7 error type: "title" must be a string, found a sequence"#,
      ])
  }

  @Test func dataFollowsTheCoreSchema() throws {
    let value = try data(
      """
      groups:
        - title: G
          rows:
            - title: R
              data:
                int: 3
                octalLooking: 012
                hex: 0x1F
                octal: 0o17
                negative: -42
                float: 1.5
                exponent: 1e3
                inf: -.inf
                yes: true
                no: FALSE
                tilde: ~
                null: null
                empty:
                quoted: "3"
                single: 'true'
                tagged: !!str 12
                text: hello world
                version: 1.2.3
                list: [1, two]
      """)
    #expect(
      value
        == .object([
          ("int", .int(3)), ("octalLooking", .int(12)), ("hex", .int(31)), ("octal", .int(15)),
          ("negative", .int(-42)), ("float", .double(1.5)), ("exponent", .double(1000)),
          ("inf", .double(-.infinity)), ("yes", .bool(true)), ("no", .bool(false)), ("tilde", .null),
          ("null", .null), ("empty", .null), ("quoted", .string("3")), ("single", .string("true")),
          ("tagged", .string("12")), ("text", .string("hello world")), ("version", .string("1.2.3")),
          ("list", .array([.int(1), .string("two")])),
        ]))
  }

  @Test func dataScalarAndNaN() throws {
    #expect(try data("groups: [{title: G, rows: [{title: R, data: 7}]}]") == .int(7))
    guard case .double(let nan)? = try data("groups: [{title: G, rows: [{title: R, data: .nan}]}]") else {
      Issue.record("expected a double")
      return
    }
    #expect(nan.isNaN)
  }
}

@Suite struct DiagnosticTests {
  @Test func duplicateKeyPointsAtTheSecond() throws {
    try expectDiagnostics(
      "title: A\ngroups:\n  - title: x\n    title: y\ntitle: B\n",
      [
        #"3:4-3:9 error duplicate-key: duplicate key "title""#,
        #"4:0-4:5 error duplicate-key: duplicate key "title""#,
      ])
  }

  @Test func duplicateKeyInsideData() throws {
    try expectDiagnostics(
      "groups: [{title: G, rows: [{title: R, data: {a: 1, b: 2, a: 3}}]}]",
      [#"0:57-0:58 error duplicate-key: duplicate key "a""#])
  }

  /// A `data:` mapping of 16 keys or more is checked through a set of its
  /// keys (built when the 17th key comes): a duplicate of a key read before
  /// the set, of the key read as it is built, and of one added to it, are all
  /// diagnosed, and distinct keys are not.
  @Test func duplicateKeyInsideALargeData() throws {
    func yaml(_ keys: [String]) -> String {
      "groups:\n  - title: G\n    rows:\n      - title: R\n        data:\n"
        + keys.map { "          \($0)\n" }.joined()
    }
    let first16 = (0..<16).map { "k\($0): \($0)" }
    try expectDiagnostics(
      yaml(first16 + ["k0: again", "k16: 16", "k17: 17", "k17: again", "k18: 18"]),
      [
        #"21:10-21:12 error duplicate-key: duplicate key "k0""#,
        #"24:10-24:13 error duplicate-key: duplicate key "k17""#,
      ])
    let distinct = (0..<40).map { "k\($0): \($0)" }
    guard case .object(let pairs)? = try data(yaml(distinct)) else {
      Issue.record("expected an object")
      return
    }
    #expect(pairs.map(\.key) == (0..<40).map { "k\($0)" })
    // A duplicate of each key, whichever way it was checked: before the set, as the
    // set is built, and after.
    for count in [15, 16, 17, 24] {
      for j in 0..<count {
        let line = 5 + count
        try expectDiagnostics(
          yaml((0..<count).map { "k\($0): \($0)" } + ["k\(j): again"]),
          [#"\#(line):10-\#(line):\#(11 + String(j).count) error duplicate-key: duplicate key "k\#(j)""#])
      }
    }
  }

  @Test func aKeyInDataMustBeAScalar() throws {
    try expectDiagnostics(
      "groups: [{title: G, rows: [{title: R, data: {[1]: x, ok: 2}}]}]",
      [#"0:45-0:46 error type: a key in "data" must be a scalar, found a sequence"#])
  }

  /// A fault on a line that starts with a tab is a tab-indentation error only when
  /// it is a syntax error: the depth limit stays what it is.
  @Test func aTooDeepNestingOnALineIndentedWithATabStaysTooDeep() throws {
    var options = OutlineLoader.Options()
    options.maxDepth = 3
    try expectDiagnostics(
      "groups: [\n\t[[[1]]]]\n", ["1:2-1:3 error too-deep: the document nests deeper than 3 levels"],
      options: options)
  }

  @Test func duplicateIdAcrossGroupsAndRows() throws {
    try expectDiagnostics(
      """
      groups:
        - id: x
          title: A
          rows:
            - {id: "x", title: a}
        - title: B
          groups:
            - id: y
              title: C
              rows:
                - {id: y, title: c}
      """,
      [
        #"4:13-4:16 error duplicate-id: duplicate id "x""#,
        #"10:17-10:18 error duplicate-id: duplicate id "y""#,
      ])
  }

  @Test func missingTitle() throws {
    try expectDiagnostics(
      """
      groups:
        - id: a
          rows:
            - {id: b}
            - title:
              detail: d
        - {}
      """,
      [
        #"1:4-1:6 error missing-title: group has no "title""#,
        #"3:8-3:9 error missing-title: row has no "title""#,
        #"4:8-4:13 error missing-title: row has no "title""#,
        #"6:4-6:5 error missing-title: group has no "title""#,
      ])
  }

  @Test func itemsMustBeMappings() throws {
    try expectDiagnostics(
      "groups:\n  - Friends\n  - title: A\n    rows: [x, [y]]\n",
      [
        #"1:4-1:11 error type: group must be a mapping, found "Friends""#,
        #"3:11-3:12 error type: row must be a mapping, found "x""#,
        #"3:14-3:15 error type: row must be a mapping, found a sequence"#,
      ])
    try expectDiagnostics("groups: {a: 1}\n", [#"0:8-0:9 error type: "groups" must be a sequence, found a mapping"#])
  }

  @Test func unknownKeyIsAWarning() throws {
    let doc = try expectDiagnostics(
      "groups:\n  - title: A\n    colour: red\n    rows: [{title: r, size: 3}]\n",
      [
        #"2:4-2:10 warning unknown-key: unknown key "colour""#,
        #"3:22-3:26 warning unknown-key: unknown key "size""#,
      ])
    #expect(doc?.groups[0].rows[0].title == "r")
  }

  @Test func tabsInIndentation() throws {
    try expectDiagnostics(
      "groups:\n  - title: x\n\trows: []\n",
      [#"2:0-2:1 error tab-indentation: a tab is used as indentation; indent with spaces"#])
    // A tab after a key is separation, not indentation.
    _ = try expectDocument("groups:\n  - title:\tx\n")
    // A tab after spaces of indentation is indentation too.
    try expectDiagnostics(
      "groups:\n  - title: x\n  \trows: []\n",
      [#"2:2-2:3 error tab-indentation: a tab is used as indentation; indent with spaces"#])
  }

  @Test func moreThanOneDocument() throws {
    try expectDiagnostics(
      "groups: []\n---\ngroups: []\n",
      [#"1:0-1:3 error multiple-documents: a file holds one YAML document, found a second"#])
  }

  @Test func syntaxErrorCarriesLibyamlsMessage() throws {
    try expectDiagnostics(
      "groups:\n  - title: a: b\n",
      [#"1:12-1:12 error syntax: mapping values are not allowed in this context"#])
    try expectDiagnostics(
      "groups: [\n",
      [#"1:0-1:0 error syntax: while parsing a flow node: did not find expected node content"#])
  }

  @Test func emptyAndNotAMapping() throws {
    let empty = #"0:0-0:0 error empty: the file is empty: expected a mapping with "groups""#
    try expectDiagnostics("", [empty])
    try expectDiagnostics("# nothing here\n", [empty])
    try expectDiagnostics(
      "- title: A\n", [#"0:0-0:1 error not-a-mapping: the top level must be a mapping, found a sequence"#])
    try expectDiagnostics(
      "just text\n", [#"0:0-0:9 error not-a-mapping: the top level must be a mapping, found "just text""#])
  }

  /// Characters whose UTF-8 starts with E0 (U+0800 to U+0FFF: Samaritan, Devanagari, Thai)
  /// are valid; E0 followed by a byte below A0 is an overlong form.
  @Test func threeByteCharactersAfterE0AreValidAndOverlongFormsAreNot() throws {
    let doc = try expectDocument("groups: [{title: नमस्ते ไทย ࠀ}]\n")
    #expect(doc.groups.first?.title == "नमस्ते ไทย ࠀ")
    let overlong = Array("groups: [{title: ".utf8) + [0xE0, 0x80, 0x80] + Array("}]\n".utf8)
    #expect(
      try OutlineLoader.load(overlong).diagnostics.map(render) == [
        "0:17-0:18 error invalid-utf8: the file is not valid UTF-8: byte 0xE0 at offset 17"
      ])
  }

  @Test func invalidUTF8PointsAtTheFirstBadByte() throws {
    let bytes = Array("title: ok\ngroups:\n  - title: é".utf8) + [0xC3, 0x28] + Array("\n".utf8)
    let result = try OutlineLoader.load(bytes)
    #expect(result.document == nil)
    #expect(
      result.diagnostics.map(render) == [
        "2:12-2:13 error invalid-utf8: the file is not valid UTF-8: byte 0xC3 at offset 31"
      ])
    // Surrogates and overlong forms are not UTF-8 either.
    #expect(try OutlineLoader.load([0xED, 0xA0, 0x80]).diagnostics.first?.code == "invalid-utf8")
    #expect(try OutlineLoader.load([0x61, 0xC0, 0xAF]).diagnostics.first?.range.start.column == 1)
  }

  /// Lines end as libyaml ends them: `\r\n` is one break, and so are `\r`,
  /// U+0085, U+2028 and U+2029 alone.
  @Test(arguments: [("\r\n", 3), ("\r", 3), ("\n", 3), ("\u{85}", 3), ("\u{2028}", 3), ("\r\n\r\n", 6)])
  func invalidUTF8IsPlacedAfterEveryKindOfLineBreak(_ lineBreak: String, _ line: Int) throws {
    let text = ["title: ok", "groups:", "  - title: a"].joined(separator: lineBreak) + lineBreak + "  - title: é"
    let bytes = Array(text.utf8) + [0xC3, 0x28]
    let result = try OutlineLoader.load(bytes)
    let at = try #require(result.diagnostics.first)
    #expect(at.code == "invalid-utf8")
    #expect(at.range.start == SourcePosition(line: line, column: 12), "after \(lineBreak.debugDescription)")
  }

  @Test func manyDiagnosticsAreCollected() throws {
    try expectDiagnostics(
      """
      groups:
        - title: A
          expanded: 1
          extra: x
          rows:
            - {id: r}
            - {id: r, title: B, emphasis: "no"}
      """,
      [
        #"2:14-2:15 error type: "expanded" must be true or false, found "1""#,
        #"3:4-3:9 warning unknown-key: unknown key "extra""#,
        #"5:8-5:9 error missing-title: row has no "title""#,
        #"6:13-6:14 error duplicate-id: duplicate id "r""#,
        #"6:36-6:40 error type: "emphasis" must be true or false, found "no""#,
      ])
  }
}

@Suite struct JSONEscapeTests {
  /// JSON writers (Python's `json.dump` by default) escape characters past
  /// U+FFFF as UTF-16 surrogate pairs, which libyaml alone refuses.
  @Test func surrogatePairEscapesLoad() throws {
    let r = try load(#"{"groups": [{"title": "A \ud83c\udf34", "rows": [{"title": "\\ud83c kept"}]}]}"#)
    #expect(r.diagnostics.isEmpty)
    #expect(r.document?.groups.first?.title == "A 🌴")
    #expect(r.document?.groups.first?.rows.first?.title == #"\ud83c kept"#)
  }

  @Test func aLoneSurrogateEscapeIsStillAnError() throws {
    let r = try load(#"{"groups": [{"title": "A \ud83c"}]}"#)
    #expect(r.document == nil)
    #expect(r.diagnostics.map(\.code) == ["syntax"])
  }
}

@Suite struct ReaderErrorTests {
  /// libyaml reports reader errors by byte offset; the diagnostic still points at the character.
  @Test func aControlCharacterIsReportedWhereItIs() throws {
    let r = try load("title: é\u{01}x\ngroups: []\n")
    #expect(r.diagnostics.map(\.code) == ["syntax"])
    #expect(r.diagnostics.first?.range.start == SourcePosition(line: 0, column: 8))
  }

  /// libyaml's offset starts after a byte order mark it was not given.
  @Test func aControlCharacterAfterAByteOrderMark() throws {
    let bytes = Array("\u{FEFF}title: é\u{01}x\ngroups: []\n".utf8)
    let r = try OutlineLoader.load(bytes)
    try expectSameThroughFile(bytes, r)
    #expect(r.diagnostics.map(\.code) == ["syntax"])
    #expect(r.diagnostics.first?.range.start == SourcePosition(line: 0, column: 8))
  }
}

/// libyaml's marks end lines at U+0085, U+2028 and U+2029 too; ``SourceText``
/// turns them into LSP positions, where only `\n`, `\r\n` and `\r` end a line.
@Suite struct LineBreakTests {
  static let breaks: [(String, Int)] = [("\u{85}", 2), ("\u{2028}", 3), ("\u{2029}", 3)]

  @Test(arguments: breaks)
  func aKeyAfterABreakInAQuotedScalar(_ character: String, _ length: Int) throws {
    let yaml = "groups:\n  - title: \"x\(character)\"\n    foo: 1\n"
    let result = try load(yaml)
    try expectSameThroughFile(Array(yaml.utf8), result)
    let d = try #require(result.diagnostics.first)
    #expect(d.code == "unknown-key")
    #expect(d.range.start == SourcePosition(line: 3, column: 4))
    let text = SourceText(yaml)
    for encoding in PositionEncoding.allCases {
      #expect(text.lspPosition(d.range.start, in: encoding) == (2, 4))
      #expect(text.lspPosition(d.range.end, in: encoding) == (2, 7))
    }
  }

  @Test(arguments: breaks)
  func aKeyOnTheSameLineAfterABreak(_ character: String, _ length: Int) throws {
    // 😀 is 4 UTF-8 bytes, 2 UTF-16 units, 1 scalar.
    let yaml = "{title: \"😀\(character)b\", foo: 1, groups: []}\n"
    let result = try load(yaml)
    try expectSameThroughFile(Array(yaml.utf8), result)
    let d = try #require(result.diagnostics.first)
    #expect(d.code == "unknown-key")
    #expect(d.range.start == SourcePosition(line: 1, column: 4))
    let text = SourceText(yaml)
    #expect(text.lspPosition(d.range.start, in: .utf8) == (0, 17 + length))
    #expect(text.lspPosition(d.range.start, in: .utf16) == (0, 16))
    #expect(text.lspPosition(d.range.start, in: .utf32) == (0, 15))
  }

  /// libyaml (YAML 1.1) refuses the break in a plain scalar; the error is placed on the right line.
  @Test(arguments: breaks)
  func aBreakInAPlainScalarIsASyntaxErrorPlacedRight(_ character: String, _ length: Int) throws {
    let yaml = "title: a\(character)b\ngroups: []\n"
    let result = try load(yaml)
    try expectSameThroughFile(Array(yaml.utf8), result)
    let d = try #require(result.diagnostics.first)
    #expect(d.code == "syntax")
    #expect(d.range.start == SourcePosition(line: 2, column: 0))
    for encoding in PositionEncoding.allCases {
      #expect(SourceText(yaml).lspPosition(d.range.start, in: encoding) == (1, 0))
    }
  }

  /// Positions found outside libyaml count its line breaks as its marks do.
  @Test(arguments: breaks)
  func errorsFoundOutsideTheParserCountTheBreaks(_ character: String, _ length: Int) throws {
    let bytes = Array("title: \"a\(character)é".utf8) + [0xC3, 0x28] + Array("\"\ngroups: []\n".utf8)
    let result = try OutlineLoader.load(bytes)
    try expectSameThroughFile(bytes, result)
    let d = try #require(result.diagnostics.first)
    #expect(d.code == "invalid-utf8")
    #expect(d.range.start == SourcePosition(line: 1, column: 1))
    #expect(SourceText(bytes).lspPosition(d.range.start, in: .utf16) == (0, 11))

    let control = Array("title: \"a\(character)é\u{01}\"\ngroups: []\n".utf8)
    let syntax = try OutlineLoader.load(control)
    try expectSameThroughFile(control, syntax)
    #expect(syntax.diagnostics.map(\.code) == ["syntax"])
    #expect(syntax.diagnostics.first?.range.start == SourcePosition(line: 1, column: 1))

    let tab = "title: \"a\(character)b\"\ngroups:\n  - title: x\n\trows: []\n"
    try expectDiagnostics(
      tab, [#"4:0-4:1 error tab-indentation: a tab is used as indentation; indent with spaces"#])
  }
}

@Suite struct AbsentCollectionTests {
  @Test(arguments: ["groups:", "groups: ~", "groups: null", "groups: Null", "groups: NULL"])
  func aNullGroupsListIsEmpty(_ yaml: String) throws {
    #expect(try expectDocument(yaml).groups.isEmpty)
  }

  @Test func anEmptyPaddingIsAbsent() throws {
    #expect(try expectDocument("layout:\n  padding:\n  width: 30\ngroups: []\n").layout.width == 30)
  }

  @Test func aNullRowsListOrLayoutIsAbsentButAQuotedOneIsNot() throws {
    let doc = try expectDocument("layout: ~\ngroups:\n  - title: A\n    rows: null\n")
    #expect(doc.groups[0].rows.isEmpty)
    #expect(doc.layout == LayoutOverrides())
    try expectDiagnostics(
      "groups:\n  - title: A\n    rows: \"~\"\n", [#"2:10-2:13 error type: "rows" must be a sequence, found "~""#])
  }
}
