import Foundation
import JSONRPC
import OutlineTestSupport
import Testing

/// The command line: `--help`, `--version`, usage errors and `render`.
@Suite struct CommandLineTests {
  static let team = """
    title: Team
    groups:
      - id: g
        title: Group
        badge: "★"
        groups:
          - id: inner
            title: Inner
            rows: [{title: Cy}]
        rows:
          - title: Ann
            detail: one two three four five six
          - title: Bo
            active: false
      - id: h
        title: Other

    """

  @Test func helpPrintsTheUsageOnStdout() throws {
    let run = try runServer(["--help"])
    #expect(run.status == 0)
    let text = String(decoding: run.stdout, as: UTF8.self)
    #expect(text.hasPrefix("Usage:\n  outline-server [--framing lsp|ndjson]"))
    #expect(text.contains("outline-server render FILE [--width N] [--expand all|ID,...]"))
    #expect(run.stderr == "")
  }

  @Test func versionPrintsNameAndVersion() throws {
    let run = try runServer(["--version"])
    #expect(run.status == 0)
    #expect(String(decoding: run.stdout, as: UTF8.self) == "outline-server 1.2.0\n")
  }

  @Test(arguments: [
    (["--bogus"], "unknown argument --bogus"),
    (["--framing", "xml"], "--framing must be lsp or ndjson, got \"xml\""),
    (["--max-message-bytes", "0"], "--max-message-bytes needs a positive integer, got \"0\""),
    (["--log-level"], "--log-level needs a value"),
    (["render"], "render needs a FILE"),
    (["render", "a.yaml", "--width", "wide"], "--width needs a positive integer, got \"wide\""),
    (["render", "a.yaml", "--color"], "unknown option --color for render"),
  ])
  func aUsageErrorIsStatus64WithAMessageOnStderr(_ arguments: [String], _ message: String) throws {
    let run = try runServer(arguments)
    #expect(run.status == 64)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.hasPrefix("outline-server: \(message)\nUsage:\n"))
    // The synopsis and a pointer to --help, not the whole help.
    #expect(run.stderr.hasSuffix("Run outline-server --help for the options.\n"))
    #expect(!run.stderr.contains("Options:"))
  }

  @Test func renderDrawsTheWholeOutlineWrappedAtTheWidth() throws {
    let file = writeFixture(Self.team, name: "team.yaml")
    let run = try runServer(["render", file.path, "--width", "20", "--expand", "all"])
    #expect(run.status == 0)
    #expect(run.stderr == "")
    #expect(
      String(decoding: run.stdout, as: UTF8.self) == """
        Team
        ▾ Group ★  2/3
          ▾ Inner  1/1
            ● Cy
          ● Ann
            one two three
            four five six
          ○ Bo
        ▾ Other  0/0

        """)
  }

  @Test func renderOpensOnlyTheGroupsNamed() throws {
    let file = writeFixture(Self.team, name: "team.yaml")
    let run = try runServer(["render", file.path, "--expand", "g"])
    #expect(run.status == 0)
    #expect(
      String(decoding: run.stdout, as: UTF8.self) == """
        Team
        ▾ Group ★  2/3
          ▸ Inner  1/1
          ● Ann
            one two three four five six
          ○ Bo
        ▸ Other  0/0

        """)
  }

  @Test(arguments: [40, 24])
  func renderOfTheContactsExampleKeepsEveryLineInTheWidth(width: Int) throws {
    // Widths at which every header fits: a header is one line (headerHeight 1), its rows wrap.
    let file = examplesDirectory().appendingPathComponent("contacts.yaml")
    let closed = try runServer(["render", file.path, "--width", "\(width)"])
    #expect(closed.status == 0)
    let all = try runServer(["render", file.path, "--width", "\(width)", "--expand", "all"])
    #expect(all.status == 0)
    let lines = String(decoding: all.stdout, as: UTF8.self).split(separator: "\n")
    #expect(lines.first == "Contacts")
    #expect(lines.count > String(decoding: closed.stdout, as: UTF8.self).split(separator: "\n").count)
    let widths = lines.map(terminalColumns)
    for (line, columns) in zip(lines, widths) {
      #expect(columns <= width, "\(columns) columns: \(line)")
    }
    // Not vacuous: long details were wrapped, and the lines fill the width.
    #expect(widths.max().map { $0 > width - 5 } == true, "widest line \(widths.max() ?? 0)")
    #expect(lines.count > 60 + 5, "\(lines.count) lines")
  }

  @Test func renderOfABadFileIsStatus1WithACompilerStyleMessage() throws {
    let file = writeFixture("groups:\n  - title: A\n    title: B\n", name: "bad.yaml")
    let run = try runServer(["render", file.path])
    #expect(run.status == 1)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr == "\(file.path):3:5: error: duplicate key \"title\" [duplicate-key]\n    title: B\n    ^\n")
  }

  /// libyaml counts U+2028 as a line break; the message gives the file's own line
  /// (printed with the separator as a space, so it stays one line on a terminal).
  @Test func renderPlacesADiagnosticAfterALineSeparatorOnTheFilesLine() throws {
    let file = writeFixture("{title: \"a\u{2028}b\", foo: 1, groups: []}\n", name: "ls.yaml")
    let run = try runServer(["render", file.path])
    #expect(run.status == 0)
    #expect(
      run.stderr
        == "\(file.path):1:16: warning: unknown key \"foo\" [unknown-key]\n{title: \"a b\", foo: 1, groups: []}\n"
        + "               ^\n")
  }

  @Test func renderOfAMissingFileIsStatus1() throws {
    let path = temporaryDirectory().appendingPathComponent("none.yaml").path
    let run = try runServer(["render", path])
    #expect(run.status == 1)
    #expect(run.stderr == "outline-server: cannot read \(path)\n")
  }

  @Test func renderWithAnUnknownExpandIdIsStatus64() throws {
    let file = writeFixture(Self.team, name: "team.yaml")
    let run = try runServer(["render", file.path, "--expand", "g,zz"])
    #expect(run.status == 64)
    #expect(run.stderr == "outline-server: no group has id \"zz\"\n")
  }
}

/// Terminal columns of `line`, measured here independently of the server: a
/// character is 2 columns when its first scalar is East Asian Wide or
/// Fullwidth (the CJK, Hangul, kana and fullwidth blocks) or it is shown as
/// emoji (Emoji_Presentation, or followed by U+FE0F), 0 when it is only
/// combining marks or format characters, else 1.
func terminalColumns(_ line: Substring) -> Int {
  let wide: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
    0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD,
  ]
  return line.reduce(0) { sum, c in
    let scalars = c.unicodeScalars
    let first = scalars.first!
    if wide.contains(where: { $0.contains(first.value) }) || first.properties.isEmojiPresentation
      || scalars.contains(where: { $0.value == 0xFE0F })
    {
      return sum + 2
    }
    let zero = scalars.allSatisfy {
      [.nonspacingMark, .enclosingMark, .format].contains($0.properties.generalCategory)
    }
    return sum + (zero ? 0 : 1)
  }
}
