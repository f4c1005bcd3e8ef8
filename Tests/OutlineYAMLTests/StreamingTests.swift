import Foundation
import OutlineModel
import OutlineYAML
import Testing

/// A sink that writes down its calls, to check what the loader sends and when.
struct CallLog: OutlineSink {
  var calls: [String] = []
  private var next = 0

  mutating func setTitle(_ title: String) { calls.append("title \(title)") }
  mutating func setExpansion(_ policy: ExpansionPolicy) { calls.append("expansion \(policy.rawValue)") }
  mutating func setLayout(_ layout: LayoutOverrides) { calls.append("layout") }
  mutating func beginGroup(parent: Int?, source: SourceRange) -> Int {
    next += 1
    calls.append("begin \(next) in \(parent.map(String.init) ?? "top") at \(source.start.line):\(source.start.column)")
    return next
  }
  mutating func addRow(_ row: RowSpec, parent: Int) { calls.append("row \(row.title) in \(parent)") }
  mutating func endGroup(_ group: Int, fields: GroupSpec) {
    calls.append("end \(group) \(fields.title) id \(fields.id ?? "-")")
  }
}

/// Inputs the other suites load with ``load(_:options:)`` (which only reads bytes), and more.
private let fixtures: [String] = [
  #"{"groups": [{"title": "A \ud83c\udf34", "rows": [{"title": "\\ud83c kept"}]}]}"#,
  #"{"groups": [{"title": "A \ud83c"}]}"#,
  "title: é\u{01}x\ngroups: []\n",
  "groups: " + String(repeating: "[", count: 300) + String(repeating: "]", count: 300) + "\n",
  "title: ünïcödé 🌴 ✓\ngroups:\n  - title: \"日本語のタイトル\"\n    rows:\n      - {title: 'ça va', detail: \"🌴🌴🌴🌴\"}\n",
  "groups:\n  - rows:\n      - title: r\n    title: late\n    id: l\n",
  "groups:\n  - [a]: b\n    title: x\n  - *undefined\n",
  "groups:\n  - title: a\n    badge: \"" + String(repeating: "long scalar ", count: 2000) + "\"\n",
  "groups: []\n---\ngroups: []\n",
  "groups: [\n",
  "\u{FEFF}groups:\n  - title: A\n",
  "groups: " + String(repeating: "[", count: 20_000) + String(repeating: "]", count: 20_000) + "\n",
  billionLaughs,
]

/// Ten levels of nine aliases each: 9^10 nodes once expanded.
private let billionLaughs: String = {
  var yaml = "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
  for level in 1...9 {
    yaml += "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ", ") + "]\n"
  }
  return yaml + "groups: []\n"
}()

@Suite struct StreamingTests {
  @Test(arguments: fixtures)
  func theFileInputMatchesTheBytes(_ yaml: String) throws {
    let bytes = Array(yaml.utf8)
    try expectSameThroughFile(bytes, try OutlineLoader.load(bytes))
  }

  @Test func aBigFileMatchesTheBytes() throws {
    let bytes = bigOutline(groups: 20, rows: 50)
    let expected = try OutlineLoader.load(bytes)
    let result = try loadThroughFile(bytes, chunkSize: 4093)
    #expect(result.diagnostics == expected.diagnostics)
    #expect(result.document == expected.document)
  }

  @Test func fieldsAfterChildren() throws {
    let yaml = """
      groups:
        - rows:
            - title: r1
          groups:
            - rows: [{title: r2}]
              title: inner
          title: outer
          id: o
      title: T
      """
    var log = CallLog()
    let diagnostics = try OutlineLoader.read(.bytes(Array(yaml.utf8)), into: &log)
    #expect(diagnostics.isEmpty)
    #expect(
      log.calls == [
        "begin 1 in top at 1:4", "row r1 in 1", "begin 2 in 1 at 4:8", "row r2 in 2", "end 2 inner id -",
        "end 1 outer id o", "title T",
      ])
    let doc = try expectDocument(yaml)
    #expect(doc.groups[0].title == "outer")
    #expect(doc.groups[0].rows.map(\.title) == ["r1"])
    #expect(doc.groups[0].groups.map(\.title) == ["inner"])
    #expect(doc.groups[0].groups[0].rows.map(\.title) == ["r2"])
  }

  @Test func aGroupByAliasIsSentTwice() throws {
    var log = CallLog()
    _ = try OutlineLoader.read(
      .bytes(Array("groups:\n  - &g {title: A, rows: [{title: r}]}\n  - *g\n".utf8)), into: &log)
    #expect(
      log.calls == [
        "begin 1 in top at 1:4", "row r in 1", "end 1 A id -", "begin 2 in top at 2:4", "row r in 2", "end 2 A id -",
      ])
  }

  @Test(arguments: [1, 2, 3, 5, 16])
  func chunkBoundariesInsideCharactersAndScalars(_ chunkSize: Int) throws {
    let yaml =
      "groups:\n  - title: \"é🌴日本\"\n    rows: [{title: ça, detail: \"\(String(repeating: "wörd ", count: 50))\"}]\n"
    let result = try loadThroughFile(Array(yaml.utf8), chunkSize: chunkSize)
    #expect(result.diagnostics.isEmpty)
    #expect(result.document?.groups[0].title == "é🌴日本")
    #expect(result.document?.groups[0].rows[0].detail == String(repeating: "wörd ", count: 50))
  }

  @Test(arguments: [1, 2, 3, 4, 32, 1 << 16])
  func invalidUTF8ThroughTheFile(_ chunkSize: Int) throws {
    let bytes = Array("title: ok\ngroups:\n  - title: é".utf8) + [0xC3, 0x28] + Array("\n".utf8)
    let result = try loadThroughFile(bytes, chunkSize: chunkSize)
    #expect(result.document == nil)
    #expect(
      result.diagnostics.map(render) == [
        "2:12-2:13 error invalid-utf8: the file is not valid UTF-8: byte 0xC3 at offset 31"
      ]
    )
    // A character cut short by the end of the file.
    let cut = try loadThroughFile(Array("title: a".utf8) + [0xF0, 0x9F, 0x8C], chunkSize: chunkSize)
    #expect(
      cut.diagnostics.map(render) == ["0:8-0:9 error invalid-utf8: the file is not valid UTF-8: byte 0xF0 at offset 8"])
    #expect(try loadThroughFile([0xED, 0xA0, 0x80], chunkSize: chunkSize).diagnostics.first?.code == "invalid-utf8")
  }

  @Test func invalidUTF8AfterWhereLibyamlStops() throws {
    // libyaml stops at the syntax error and at the second document; the rest is still checked.
    for yaml in ["groups: [\n", "groups: []\n---\n"] {
      let bytes = Array(yaml.utf8) + Array(repeating: UInt8(ascii: "#"), count: 100_000) + [0xFF]
      let result = try loadThroughFile(bytes, chunkSize: 1000)
      #expect(result.diagnostics.map(\.code) == ["invalid-utf8"])
      #expect(result.diagnostics == (try OutlineLoader.load(bytes)).diagnostics)
    }
  }

  @Test func cancellationThroughTheFile() throws {
    let bytes = bigOutline(groups: 50, rows: 100)
    var polls = 0
    #expect(throws: CancellationError.self) {
      try loadThroughFile(
        bytes,
        shouldCancel: {
          polls += 1
          return polls > 2
        })
    }
  }

  @Test func progressThroughTheFileRises() throws {
    let bytes = bigOutline(groups: 100, rows: 100)
    var fractions: [Double] = []
    let result = try loadThroughFile(bytes, progress: { fractions.append($0) })
    #expect(result.diagnostics.isEmpty)
    #expect(fractions.count > 10)
    #expect(fractions.count <= 102)
    #expect(fractions.last == 1)
    #expect(zip(fractions, fractions.dropFirst()).allSatisfy { $0 <= $1 })
  }
}
