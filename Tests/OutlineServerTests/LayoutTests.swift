import Foundation
import JSONRPC
import OutlineTestSupport
import Testing

/// PROTOCOL §5 setLayout, rowHeights and measured heights.
@Suite struct LayoutTests {
  let uri: JSONValue = "untitled:l"

  /// One open group holding one row titled `title`; heights are [header, row].
  func server(_ title: String, layout: JSONValue? = nil) throws -> InProcessServer {
    let s = try InProcessServer.started()
    let quoted = JSONValue.string(title).jsonText
    var extra: [String: JSONValue] = [:]
    if let layout { extra["layout"] = layout }
    s.open("untitled:l", "groups:\n  - title: G\n    expanded: true\n    rows:\n      - title: \(quoted)\n", extra)
    return s
  }

  func rowHeight(_ s: InProcessServer, sourceLocation: SourceLocation = #_sourceLocation) -> JSONValue? {
    s.result("rowHeights", ["uri": uri], sourceLocation: sourceLocation)["heights"]?[1]
  }

  @Test func theDefaultsAreCellsOf80WithIndent2() throws {
    // Depth 1: 80 − 2 = 78 cells per line.
    #expect(rowHeight(try server(String(repeating: "x", count: 78))) == 1)
    #expect(rowHeight(try server(String(repeating: "x", count: 79))) == 2)
  }

  @Test func setLayoutChangesOnlyTheFieldsGiven() throws {
    let s = try server(String(repeating: "x", count: 78))
    expectJSON(s.result("setLayout", ["uri": uri, "width": 40]), ["version": 2, "contentHeight": 4])
    #expect(rowHeight(s) == 3, "78 cells in lines of 38")
    _ = s.result("setLayout", ["uri": uri, "indent": 0])
    #expect(rowHeight(s) == 2, "the width stays 40")
    _ = s.result("setLayout", ["uri": uri, "lineHeight": 3])
    #expect(rowHeight(s) == 6)
    #expect(s.result("rowHeights", ["uri": uri])["heights"]?[0] == 1, "headerHeight is fixed at 1")
  }

  /// PROTOCOL writes `width` without a `?` yet says only given fields change; the project
  /// reads `width` as optional in setLayout.
  @Test func ambiguousSetLayoutWithoutWidthKeepsTheWidth() throws {
    let s = try server(String(repeating: "x", count: 78))
    _ = s.result("setLayout", ["uri": uri, "width": 40])
    _ = s.result("setLayout", ["uri": uri, "maxLines": 9])
    #expect(rowHeight(s) == 3)
  }

  @Test func setLayoutWithTheCurrentValuesKeepsTheVersion() throws {
    let s = try server("x")
    #expect(s.result("setLayout", ["uri": uri, "width": 80, "unit": "cell", "indent": 2])["version"] == 1)
    #expect(s.result("setLayout", ["uri": uri, "width": 81])["version"] == 2)
  }

  @Test func pxUsesTheNarrowAndWideAdvances() throws {
    let layout: JSONValue = [
      "unit": "px", "width": 100, "narrowWidth": 10, "wideWidth": 20, "lineHeight": 16, "indent": 0,
      "headerHeight": 16,
    ]
    #expect(rowHeight(try server(String(repeating: "x", count: 10), layout: layout)) == 16)
    #expect(rowHeight(try server(String(repeating: "x", count: 11), layout: layout)) == 32)
    let s = try server(String(repeating: "x", count: 10), layout: layout)
    _ = s.result("setLayout", ["uri": uri, "indent": 10])
    #expect(rowHeight(s) == 32, "indent is in px: 90 px for 10 × 10 px")
  }

  @Test func paddingAddsHeightAndNarrowsTheLine() throws {
    let s = try server(String(repeating: "x", count: 71))
    _ = s.result("setLayout", ["uri": uri, "padding": ["top": 1, "bottom": 2, "left": 3, "right": 4]])
    #expect(rowHeight(s) == 4, "80 − 2 − 7 = 71 cells: one line, plus 3")
    _ = s.result("setLayout", ["uri": uri, "padding": ["right": 5]])
    #expect(rowHeight(s) == 5, "70 cells: two lines; the other sides stay")
  }

  @Test func maxLinesCapsEachText() throws {
    let s = try server(String(repeating: "x ", count: 200))
    _ = s.result("setLayout", ["uri": uri, "maxLines": 2])
    #expect(rowHeight(s) == 2)
    #expect(s.errorCode("setLayout", ["uri": uri, "maxLines": 0]) == -32602)
  }

  @Test func tabSizeSetsTheTabStops() throws {
    let s = try server("a\tb", layout: ["width": 7, "tabSize": 4])
    #expect(rowHeight(s) == 1, "a, tab to 4, b: 5 cells in 5")
    _ = s.result("setLayout", ["uri": uri, "tabSize": 8])
    #expect(rowHeight(s) == 2)
  }

  @Test func headerHeightAutoMeasuresTheTitle() throws {
    let s = try InProcessServer.started()
    s.open("untitled:l", "groups:\n  - title: \(String(repeating: "x", count: 100))\n")
    _ = s.result("setLayout", ["uri": uri, "headerHeight": "auto"])
    #expect(s.result("rowHeights", ["uri": uri])["heights"] == [2])
    #expect(s.errorCode("setLayout", ["uri": uri, "headerHeight": "big"]) == -32602)
  }

  @Test func rowHeightsWithAWidthSetsTheLayoutFirst() throws {
    let s = try server(String(repeating: "x", count: 78))
    let r = s.result("rowHeights", ["uri": uri, "width": 40])
    expectJSON(r, ["version": 2, "heights": [1, 3], "tops": [0, 1], "contentHeight": 4])
    #expect(rowHeight(s) == 3, "the width stays")
  }

  @Test func topsAndHeightsAddUpToContentHeight() throws {
    let s = try InProcessServer.started()
    s.open("untitled:c", contactsText())
    _ = s.result("expandAll", ["uri": "untitled:c"])
    _ = s.result("setLayout", ["uri": "untitled:c", "width": 30])
    let r = s.result("rowHeights", ["uri": "untitled:c"])
    let heights = r["heights"]?.arrayValue?.compactMap(\.doubleValue) ?? []
    let tops = r["tops"]?.arrayValue?.compactMap(\.doubleValue) ?? []
    #expect(heights.count == tops.count)
    var top = 0.0
    for (h, t) in zip(heights, tops) {
      #expect(t == top)
      top += h
    }
    #expect(r["contentHeight"]?.doubleValue == top)
    let window = s.result("rowHeights", ["uri": "untitled:c", "start": 3, "count": 2])
    #expect(window["tops"]?.arrayValue?.compactMap(\.doubleValue) == Array(tops[3..<5]))
  }
}

@Suite struct LayoutBoundsTests {
  @Test func hugeValuesAreRefusedSoHeightsStayNumbers() throws {
    let s = try InProcessServer()
    s.initialize()
    _ = s.result("openOutline", ["uri": "mem:b", "text": "groups: [{title: G, expanded: true, rows: [{title: r}]}]"])
    for field in ["lineHeight", "width", "indent", "narrowWidth", "wideWidth", "headerHeight", "rowHeight"] {
      #expect(s.errorCode("setLayout", ["uri": "mem:b", .init(stringLiteral: field): 1e308]) == -32602, "\(field)")
    }
    #expect(s.errorCode("setLayout", ["uri": "mem:b", "padding": ["top": 1e300]]) == -32602)
    let ok = s.result("setLayout", ["uri": "mem:b", "width": 1e-300])
    #expect(ok["contentHeight"]?.doubleValue?.isFinite == true)
    // A negative scroll offset is stored as 0.
    _ = s.result("setViewState", ["uri": "mem:b", "expanded": ["G"], "scrollTop": -3])
    #expect(s.result("getViewState", ["uri": "mem:b"])["scrollTop"] == 0)
  }
}
