import Foundation
import OutlineModel
import OutlineTestSupport
import OutlineYAML
import Testing

@testable import OutlineServer

@Suite struct CommandParseTests {
  @Test func serveOptions() throws {
    #expect(try Command.parse([]) == .serve(ServerOptions()))
    var o = ServerOptions()
    o.framing = .ndjson
    o.maxMessageBytes = 10
    o.maxNodes = 5
    o.logLevel = .debug
    #expect(
      try Command.parse([
        "--framing", "ndjson", "--max-message-bytes", "10", "--max-nodes", "5", "--log-level", "debug",
      ]) == .serve(o))
  }

  @Test func theArgumentsLSPClientsPassAreAccepted() throws {
    var o = ServerOptions()
    #expect(try Command.parse(["--stdio"]) == .serve(o))
    o.clientProcessID = 4242
    #expect(try Command.parse(["--stdio", "--clientProcessId", "4242"]) == .serve(o))
    #expect(try Command.parse(["--clientProcessId=4242", "--stdio"]) == .serve(o))
  }

  @Test func helpVersionAndRender() throws {
    #expect(try Command.parse(["--help"]) == .help)
    #expect(try Command.parse(["-h"]) == .help)
    #expect(try Command.parse(["--version"]) == .version)
    #expect(try Command.parse(["render", "f.yaml"]) == .render(file: "f.yaml", width: nil, expand: nil))
    #expect(
      try Command.parse(["render", "--expand", "all", "f.yaml", "--width", "30"])
        == .render(file: "f.yaml", width: 30, expand: []))
    #expect(
      try Command.parse(["render", "-", "--expand", "a,b"]) == .render(file: "-", width: nil, expand: ["a", "b"]))
  }

  @Test func renderInAFont() throws {
    let font = FontDescription(families: ["Noto Sans", "Noto Sans CJK SC"], size: 14)
    #expect(
      try Command.parse([
        "render", "f.yaml", "--font", "Noto Sans, Noto Sans CJK SC", "--size", "14", "--width", "120.5",
      ])
        == .render(file: "f.yaml", width: nil, expand: nil, font: RenderFont(font: font, width: 120.5)))
    var bold = font
    bold.weight = 700
    bold.style = .italic
    #expect(
      try Command.parse([
        "render", "f.yaml", "--font", "Noto Sans,Noto Sans CJK SC", "--size", "14", "--width", "300", "--weight",
        "700", "--style", "italic", "--counts", "--expand", "all",
      ]) == .render(file: "f.yaml", width: nil, expand: [], font: RenderFont(font: bold, width: 300, countsOnly: true)))
  }

  @Test(arguments: [
    (["render", "f", "--font", "A", "--width", "10"], "--font needs --size"),
    (["render", "f", "--font", "A", "--size", "14"], "--font needs --width"),
    (["render", "f", "--font", ",", "--size", "14", "--width", "9"], "--font needs family names, got \",\""),
    (["render", "f", "--font", "A", "--size", "0", "--width", "9"], "--size needs a positive number of px, got \"0\""),
    (
      ["render", "f", "--font", "A", "--size", "9", "--width", "9", "--weight", "50"],
      "--weight needs an integer from 100 to 900, got \"50\""
    ),
    (
      ["render", "f", "--font", "A", "--size", "9", "--width", "9", "--style", "bold"],
      "--style must be normal or italic, got \"bold\""
    ),
    (["render", "f", "--counts"], "--size, --weight, --style and --counts need --font"),
  ])
  func renderFontUsageErrors(_ args: [String], _ message: String) {
    #expect(throws: UsageError(message)) { try Command.parse(args) }
  }

  @Test(arguments: [
    (["--nope"], "unknown argument --nope"),
    (["--framing"], "--framing needs a value"),
    (["--max-nodes", "-3"], "--max-nodes needs a positive integer, got \"-3\""),
    (["--log-level", "loud"], "--log-level must be error, warn, info or debug, got \"loud\""),
    (["render", "a", "b"], "render takes one FILE, got \"a\" and \"b\""),
    (["render", "--expand"], "--expand needs a value"),
    (["--clientProcessId", "x"], "--clientProcessId needs a process id, got \"x\""),
    (["--clientProcessId=0"], "--clientProcessId needs a process id, got \"0\""),
    (["--clientProcessId"], "--clientProcessId needs a value"),
  ])
  func usageErrors(_ args: [String], _ message: String) {
    #expect(throws: UsageError(message)) { try Command.parse(args) }
  }
}

@Suite struct RendererTests {
  func state(_ text: String, width: Double = 20) throws -> OutlineState {
    let result = try OutlineLoader.load(Array(text.utf8))
    let document = try #require(result.document)
    return OutlineState(outline: Outline(document: document), layout: OutlineRenderer.layout(width: width))
  }

  @Test func drawsArrowsCountsDotsAndWrappedDetails() throws {
    var s = try state(
      """
      groups:
        - {id: g, title: G, badge: "!", expanded: true, rows: [{title: A, detail: aaa bbb ccc ddd eee}, {title: B, active: false}]}
        - {id: h, title: H}

      """, width: 14)
    #expect(
      OutlineRenderer(state: s).render() == """
        ▾ G !  1/2
          ● A
            aaa bbb
            ccc ddd
            eee
          ○ B
        ▸ H  0/0

        """)
    _ = try s.toggle(0)
    #expect(OutlineRenderer(state: s).render() == "▸ G !  1/2\n▸ H  0/0\n")
  }

  @Test func controlCharactersAreNotPassedToTheTerminal() throws {
    let s = try state(
      #"groups: [{title: "a\e[31mRED", badge: "\e]0;title\a", expanded: true, rows: [{title: "x\u0085y"}]}]"#
        + "\n", width: 40)
    let out = OutlineRenderer(state: s).render()
    #expect(out == "▾ a[31mRED ]0;title  1/1\n  ● xy\n")
    var t = try state("title: \"Top\\e]0;pwned\\a\\u202Ex\"\ngroups: [{title: g}]\n", width: 40)
    _ = try t.expandAll()
    #expect(OutlineRenderer(state: t).render() == "Top]0;pwnedx\n▾ g  0/0\n")
    #expect(!out.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" })
  }

  @Test func theOutlineTitleComesFirstAndMaxLinesCaps() throws {
    var s = try state(
      "title: T\ngroups:\n  - {title: G, expanded: true, rows: [{title: aaaa bbbb cccc dddd}]}\n", width: 8)
    var l = LayoutOverrides()
    l.maxLines = 1
    s.setLayout(l)
    #expect(OutlineRenderer(state: s).render() == "T\n▾ G  1/1\n  ● aaaa\n")
  }
}

@Suite struct DiagnosticFormatterTests {
  @Test func formatsPathLineColumnSourceAndCaret() throws {
    let bytes = Array("groups:\n  - title: A\n    title: B\n".utf8)
    let result = try OutlineLoader.load(bytes)
    let d = try #require(result.diagnostics.first)
    #expect(
      DiagnosticFormatter(path: "g.yaml", text: SourceText(bytes)).format(d)
        == "g.yaml:3:5: error: duplicate key \"title\" [duplicate-key]\n    title: B\n    ^\n")
  }

  @Test func aWarningKeepsTabsBeforeTheCaret() throws {
    let bytes = Array("a:\n\tb: 1\n".utf8)
    let d = Diagnostic(
      range: SourceRange(start: SourcePosition(line: 1, column: 1), end: SourcePosition(line: 1, column: 2)),
      severity: .warning, code: "unknown-key", message: "unknown key \"b\"")
    #expect(
      DiagnosticFormatter(path: "x.yaml", text: SourceText(bytes)).format(d)
        == "x.yaml:2:2: warning: unknown key \"b\" [unknown-key]\n\tb: 1\n\t^\n")
  }

  @Test func theCaretStandsUnderTheColumnAfterWideCharacters() throws {
    // 21 scalars before the second x; 是是 take 4 cells, é (e + combining acute) 1.
    let bytes = Array("{是是: 1, e\u{301}: 2, x: 3, x: 4}\n".utf8)
    let result = try OutlineLoader.load(bytes)
    let d = try #require(result.diagnostics.first { $0.code == "duplicate-key" })
    let lines = DiagnosticFormatter(path: "w.yaml", text: SourceText(bytes)).format(d).split(separator: "\n")
    #expect(lines[0] == "w.yaml:1:22: error: duplicate key \"x\" [duplicate-key]")
    #expect(lines[2] == String(repeating: " ", count: 22) + "^")
  }

  @Test func messagesAndSourceLinesReachTheTerminalWithoutControls() throws {
    let bytes = Array("groups:\n  - title: a\n    \"\\e[2J\\e]0;x\\a\": 3\n\tzz\u{202E}: \u{1B}[31m\n".utf8)
    let result = try OutlineLoader.load(bytes)
    let text = result.diagnostics.map(DiagnosticFormatter(path: "e.yaml", text: SourceText(bytes)).format).joined()
    #expect(!text.isEmpty)
    #expect(
      !text.unicodeScalars.contains {
        ($0.properties.generalCategory == .control && $0 != "\n" && $0 != "\t") || $0 == "\u{202E}"
      })
  }

  @Test func aPositionPastTheTextHasNoSourceLine() throws {
    let d = Diagnostic(
      range: SourceRange(start: SourcePosition(line: 5, column: 0), end: SourcePosition(line: 5, column: 0)),
      severity: .error, code: "empty", message: "the file is empty")
    #expect(
      DiagnosticFormatter(path: "e.yaml", text: SourceText([UInt8]())).format(d)
        == "e.yaml:6:1: error: the file is empty [empty]\n")
  }
}

/// `render --font` prints each text's lines as the font layout makes them, or their count.
@Suite struct RenderFontTests {
  @Test func oneOutputLinePerLaidOutLine() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("render-font-\(UUID().uuidString).yaml")
    defer { try? FileManager.default.removeItem(at: file) }
    let yaml =
      "layout: {indent: 0}\ngroups:\n  - {id: g, title: Group, rows: [{id: r, title: aaaa bbbb cccc dddd, detail: \"x\\ty\"}]}\n"
    try Data(yaml.utf8).write(to: file)
    let font = RenderFont(font: FontDescription(families: ["Noto Sans"], size: 14), width: 100)
    let lines = RenderCommand.run(file: file.path, width: nil, expand: [], font: font)
    #expect(lines.status == 0)
    #expect(lines.stdout == "g\ttitle\tGroup\nr\ttitle\taaaa bbbb cccc\nr\ttitle\tdddd\nr\tdetail\tx      y\n")
    var counts = font
    counts.countsOnly = true
    #expect(
      RenderCommand.run(file: file.path, width: nil, expand: [], font: counts).stdout
        == "g\ttitle\t1\nr\ttitle\t2\nr\tdetail\t1\n")
  }
}

/// `render` draws exactly the lines the server counts: each item as many lines as its height.
@Suite struct RenderMatchesHeightsTests {
  @Test(arguments: ["contacts.yaml", "accordion.yaml", "contacts.json"], [12, 30, 45, 80])
  func everyItemTakesItsHeight(file: String, width: Int) throws {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("examples/\(file)").path
    // Under expansion: single (the accordion) --expand all is refused: draw the file's expansion.
    let single = file == "accordion.yaml"
    let output = RenderCommand.run(file: path, width: width, expand: single ? nil : [])
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    let document = try #require(OutlineLoader.load(bytes).document)
    var state = OutlineState(
      outline: Outline(document: document),
      layout: OutlineRenderer.layout(file: document.layout, width: Double(width)))
    if !single { _ = try state.expandAll() }
    #expect(output.status == 0)
    var lines = output.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    if document.title != nil { lines = lines.dropFirst() }
    #expect(Double(lines.count) == state.contentHeight)
    #expect(!output.stdout.contains("\t"))
  }
}
