import Foundation
import JSONRPC
import OutlineTestSupport
import Testing

/// PROTOCOL §10: heights in a real font, through setLayout and openOutline.
@Suite struct FontLayoutTests {
  let uri: JSONValue = "untitled:f"
  let font: JSONValue = ["family": ["Noto Sans", "Noto Sans CJK SC", "Noto Color Emoji"], "size": 14]

  /// One open group holding one row titled `title`; heights are [header, row].
  func server(_ title: String, layout: JSONValue? = nil) throws -> InProcessServer {
    let s = try InProcessServer.started()
    let quoted = JSONValue.string(title).jsonText
    var extra: [String: JSONValue] = [:]
    if let layout { extra["layout"] = layout }
    s.open("untitled:f", "groups:\n  - title: G\n    expanded: true\n    rows:\n      - title: \(quoted)\n", extra)
    return s
  }

  /// The error message of a setLayout that must fail with -32602.
  func refusal(_ s: InProcessServer, _ params: [String: JSONValue], sourceLocation: SourceLocation = #_sourceLocation)
    -> String?
  {
    var p = params
    p["uri"] = uri
    let e = s.error("setLayout", .object(p), sourceLocation: sourceLocation)
    #expect(e["code"] == -32602, sourceLocation: sourceLocation)
    return e["message"]?.stringValue
  }

  @Test func heightsAreLinesOfTheFontTimesTheLineHeight() throws {
    // "aaaa bbbb cccc dddd" is 2 lines of 14 px Noto Sans at 100 px in Chromium, 1 at 200.
    let s = try server("aaaa bbbb cccc dddd")
    let r = s.result(
      "setLayout",
      ["uri": uri, "unit": "font", "font": font, "lineHeight": 20, "width": 100, "indent": 0, "headerHeight": 20])
    #expect(r["fonts"] == ["Noto Sans", "Noto Sans CJK SC", "Noto Color Emoji"])
    #expect(r["contentHeight"] == 60)
    #expect(s.result("rowHeights", ["uri": uri, "width": 200])["heights"] == [20, 20])
    #expect(s.result("rowHeights", ["uri": uri, "width": 100])["heights"] == [20, 40])
    // Other units keep their result as it was: no `fonts`.
    #expect(s.result("setLayout", ["uri": uri, "unit": "px", "narrowWidth": 8, "wideWidth": 16])["fonts"] == nil)
  }

  @Test func familiesTheMachineLacksAreLeftOut() throws {
    let s = try server("x")
    let r = s.result(
      "setLayout",
      ["uri": uri, "unit": "font", "font": ["family": ["No Such Family", "Noto Sans"], "size": 14], "lineHeight": 20])
    #expect(r["fonts"] == ["Noto Sans"])
  }

  @Test func theFileAndOpenOutlineMayGiveTheFont() throws {
    let s = try InProcessServer.started()
    let text = """
      layout:
        unit: font
        font: {family: [Noto Sans], size: 14}
        lineHeight: 20
        headerHeight: 20
        indent: 0
        width: 100
      groups:
        - title: G
          expanded: true
          rows:
            - title: aaaa bbbb cccc dddd
      """
    s.open("untitled:file", text)
    #expect(s.result("rowHeights", ["uri": "untitled:file"])["heights"] == [20, 40])
    s.open(
      "untitled:open", "groups: [{title: G, expanded: true, rows: [{title: aaaa bbbb cccc dddd}]}]",
      [
        "layout": ["unit": "font", "font": font, "lineHeight": 10, "width": 100, "indent": 0]
      ])
    #expect(s.result("rowHeights", ["uri": "untitled:open"])["heights"] == [1, 20])
  }

  @Test func aFontLayoutWithoutItsFieldsIsRefusedNamingThem() throws {
    let s = try server("x")
    #expect(refusal(s, ["unit": "font", "lineHeight": 20]) == "\"font\" must be given in unit \"font\"")
    #expect(refusal(s, ["unit": "font", "font": font]) == "\"lineHeight\" must be given in unit \"font\"")
    #expect(refusal(s, ["unit": "font", "font": ["size": 14], "lineHeight": 20]) == "\"font.family\" is missing")
    #expect(
      refusal(s, ["font": ["family": [], "size": 14]]) == "\"font.family\" must be a non-empty array of family names")
    #expect(refusal(s, ["font": ["family": "Noto Sans", "size": 14]])?.hasPrefix("\"font.family\"") == true)
    #expect(refusal(s, ["font": ["family": ["A", 3], "size": 14]])?.hasPrefix("\"font.family[1]\"") == true)
    #expect(refusal(s, ["font": ["family": ["Noto Sans"]]]) == "\"font.size\" is missing")
    #expect(refusal(s, ["font": ["family": ["Noto Sans"], "size": 0]])?.hasPrefix("\"font.size\"") == true)
    #expect(
      refusal(s, ["font": ["family": ["Noto Sans"], "size": 14, "weight": 950]])?.hasPrefix("\"font.weight\"") == true)
    #expect(
      refusal(s, ["font": ["family": ["Noto Sans"], "size": 14, "style": "oblique"]])?.hasPrefix("\"font.style\"")
        == true)
    #expect(refusal(s, ["font": "Noto Sans"]) == "\"font\" must be an object")
    // Nothing was applied: still cells.
    #expect(s.result("rowHeights", ["uri": uri])["heights"] == [1, 1])
    #expect(s.version("untitled:f") == 1)
  }

  @Test func aLineHeightGivenEarlierCounts() throws {
    let s = try server("x", layout: ["lineHeight": 20])
    #expect(s.result("setLayout", ["uri": uri, "unit": "font", "font": font])["fonts"] != nil)
    let t = try InProcessServer.started()
    let e = t.error(
      "openOutline", ["uri": "untitled:g", "text": "groups: []", "layout": ["unit": "font", "font": font]])
    #expect(e["code"] == -32602)
    #expect(e["message"] == "\"lineHeight\" must be given in unit \"font\"")
  }

  @Test func rowsCarryTheLinesTheirHeightsCount() throws {
    let s = try server("aaaa bbbb cccc dddd")
    _ = s.result(
      "setLayout", ["uri": uri, "unit": "font", "font": font, "lineHeight": 20, "width": 100, "indent": 0])
    let rows = s.result("visibleRows", ["uri": uri, "include": ["lines"]])["rows"]
    #expect(rows?[0]?["lines"] == ["title": ["G"]])
    #expect(rows?[1]?["lines"] == ["title": ["aaaa bbbb cccc", "dddd"]])
    #expect(rows?[1]?["height"] == 40)
    // The same seam in cells: 10 cells less the indent of 2.
    _ = s.result("setLayout", ["uri": uri, "unit": "cell", "lineHeight": 1, "width": 12, "indent": 2])
    #expect(
      s.result("visibleRows", ["uri": uri, "start": 1, "include": ["lines"]])["rows"]?[0]?["lines"]
        == ["title": ["aaaa bbbb", "cccc dddd"]])
    #expect(s.result("visibleRows", ["uri": uri])["rows"]?[1]?["lines"] == nil)
    let e = s.error("visibleRows", ["uri": uri, "include": ["lines", "heights"]])
    #expect(e["code"] == -32602)
    #expect(e["message"] == "\"include[1]\" must be \"range\" or \"lines\"")
  }

  @Test func initializeOffersUnitFont() throws {
    let s = try InProcessServer()
    #expect(s.initialize()["capabilities"]?["units"] == ["cell", "px", "font"])
  }
}
