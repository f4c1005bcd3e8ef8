import Testing

@testable import OutlineModel

/// Treats CJK ideographs as wide, so that wide-cluster breaking can be tested
/// before a full width table exists.
private struct IdeographsWide: ClusterWidthTable {
  func widthClass(of cluster: Character) -> ClusterWidthClass {
    let v = cluster.unicodeScalars.first!.value
    return (0x4E00...0x9FFF).contains(v) ? .wide : .narrow
  }
}

@Suite struct TextMeasurerTests {
  let m = TextMeasurer()

  @Test(arguments: [
    ("", 10.0, [""]),
    ("abc", 10.0, ["abc"]),
    ("abc\n", 10.0, ["abc", ""]),
    ("a\r\nb\u{2028}c", 10.0, ["a", "b", "c"]),
    (String(repeating: "x", count: 25), 10.0, ["xxxxxxxxxx", "xxxxxxxxxx", "xxxxx"]),
    ("hello world", 8.0, ["hello", "world"]),
    ("hello world", 11.0, ["hello world"]),
    ("hello   world", 5.0, ["hello", "world"]),
    ("  indented text", 10.0, ["  indented", "text"]),
    ("ab cdefghijklmn", 5.0, ["ab", "cdefg", "hijkl", "mn"]),
    ("key:\tvalue", 12.0, ["key:", "value"]),
    ("a\u{00A0}b c", 3.0, ["a\u{00A0}b", "c"]),
    ("ab\u{200B}cd", 3.0, ["ab\u{200B}", "cd"]),
    ("abc", 0.5, ["a", "b", "c"]),
  ])
  func wrapsAsTheContractSays(text: String, width: Double, expected: [String]) {
    #expect(m.lines(text, width: width).map(String.init) == expected)
    #expect(m.lineCount(text, width: width) == expected.count)
  }

  @Test func tabsAdvanceToTheNextStop() {
    #expect(m.width(of: "a\tb") == 9)
    #expect(m.width(of: "12345678\tb") == 17)
    let px = TextMeasurer(narrowWidth: 7, wideWidth: 14, tabSize: 4)
    #expect(px.width(of: "a\t") == 28)
  }

  @Test func wideClustersAreBreakOpportunities() {
    let w = TextMeasurer(widths: IdeographsWide())
    let ten = String(repeating: "中", count: 10)
    #expect(w.lineCount(ten, width: 10) == 2)
    #expect(w.lineCount("ab " + ten, width: 12) == 2)
    #expect(w.lines("ab中文cd", width: 5).map(String.init) == ["ab中", "文cd"])
  }

  @Test func pixelAdvances() {
    let px = TextMeasurer(narrowWidth: 7.5, wideWidth: 15, tabSize: 8)
    #expect(px.lineCount("abcd", width: 30) == 1)
    #expect(px.lineCount("abcde", width: 30) == 2)
  }

  @Test(arguments: [0.5, 1, 3, 7, 10, 12.5, 40])
  func countingBytesAgreesWithWrappingText(width: Double) {
    // Random ASCII texts (words, runs of spaces and tabs, line feeds, controls),
    // plus non-ASCII and CR texts that take the String path.
    let alphabet = Array("abcdefghij KLM,.;)!?  \t\n\u{07}".utf8)
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15 &+ UInt64(width * 8)
    var texts = ["", " ", "\n", "a\r\nb c", "日本語の文 text", "naïve café au lait"]
    for _ in 0..<400 {
      var bytes: [UInt8] = []
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      for _ in 0..<Int(seed >> 58) {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        bytes.append(alphabet[Int(seed >> 33) % alphabet.count])
      }
      texts.append(String(decoding: bytes, as: UTF8.self))
    }
    let px = TextMeasurer(narrowWidth: 2.5, wideWidth: 5, tabSize: 4)
    for measurer in [m, px] {
      for text in texts {
        let counted = Array(text.utf8).withUnsafeBufferPointer { measurer.lineCount(utf8: $0, width: width) }
        #expect(counted == measurer.lineCount(text, width: width), "\(text.debugDescription) at \(width)")
      }
    }
  }

  @Test func heightsFromTheOutlineEqualHeightsOfItemValues() {
    let rows = [
      RowSpec(title: "short", detail: "fits"), RowSpec(title: String(repeating: "long ", count: 30), detail: nil),
      RowSpec(title: "tab\there", detail: "line\nbreak"), RowSpec(title: "", detail: ""),
      RowSpec(title: "東京 wide", detail: "caf\u{E9} " + String(repeating: "y", count: 90)),
    ]
    let outline = Outline(document: OutlineDocument(groups: [GroupSpec(title: "G", rows: rows)]))
    for maxLines in [nil, 1, 2] {
      var layout = Layout()
      layout.headerHeight = .auto
      layout.width = 40
      layout.maxLines = maxLines
      let heights = RowHeights(layout: layout)
      for p in 0..<outline.count {
        #expect(heights.height(at: p, in: outline) == heights.height(of: outline.items[p]))
      }
    }
  }
}

/// Corners of measuring in fractional advances (unit `px`) and of drawing tabs.
@Suite struct TextMeasurerEdgeTests {
  /// 0.1 + 0.1 + 0.1 is a little more than 0.3 in binary: three advances of 0.1
  /// still fit a width of 0.3, on the ASCII path and on the general one.
  @Test func advancesThatAddUpToTheWidthFitDespiteRounding() {
    let m = TextMeasurer(narrowWidth: 0.1, wideWidth: 0.2)
    func bytesPath(_ text: String) -> Int {
      var copy = text
      return copy.withUTF8 { m.lineCount(utf8: $0, width: 0.3) }
    }
    #expect(bytesPath("abc") == 1)
    #expect(bytesPath("abcd") == 2)
    #expect(m.lineCount("abc", width: 0.3) == 1)
    #expect(m.lineCount("abé", width: 0.3) == 1)
    #expect(m.lineCount("abcd", width: 0.3) == 2)
    #expect(m.lineCount("abcé", width: 0.3) == 2)
  }

  /// With a narrow advance of 0 a tab still draws as one space, not a division by zero.
  @Test func aTabIsDrawnWithANarrowAdvanceOfZero() {
    #expect(TextMeasurer(narrowWidth: 0, wideWidth: 0).drawnText("a\tb") == "a b")
    #expect(TextMeasurer(tabSize: 4).drawnText("a\tb") == "a   b")
  }
}

/// The bounds of every layout field (PROTOCOL §5), as the one table both readers use.
@Suite struct LayoutFieldTests {
  func accepts(_ name: String, _ value: Double, in fields: [LayoutField] = LayoutField.all) -> Bool? {
    guard let field = fields.first(where: { $0.name == name }) else { return nil }
    switch field.kind {
    case .length(_, let minimum, let strict): return LayoutField.accepts(value, minimum: minimum, strict: strict)
    case .integer(_, let minimum): return LayoutField.accepts(Int64(value), minimum: minimum)
    case .height: return LayoutField.acceptsHeight(value)
    default: return nil
    }
  }

  @Test func theFieldsAreTheProtocolsInItsOrder() {
    #expect(
      LayoutField.all.map(\.name) == [
        "unit", "width", "narrowWidth", "wideWidth", "lineHeight", "headerHeight", "rowHeight", "indent", "padding",
        "maxLines", "tabSize", "font",
      ])
    #expect(LayoutField.padding.map(\.name) == ["top", "bottom", "left", "right"])
  }

  @Test func eachFieldTakesItsRangeAndNothingOutside() {
    let max = LayoutLimits.maxLength
    // width > 0; the advances, lineHeight, indent, heights and padding >= 0; all <= maxLength.
    #expect(accepts("width", 0) == false && accepts("width", 0.01) == true && accepts("width", max) == true)
    #expect(accepts("width", max + 1) == false && accepts("width", .infinity) == false)
    for name in ["narrowWidth", "wideWidth", "lineHeight", "indent", "headerHeight", "rowHeight"] {
      #expect(accepts(name, 0) == true && accepts(name, -0.01) == false, "\(name)")
      #expect(accepts(name, max) == true && accepts(name, max + 1) == false, "\(name)")
      #expect(accepts(name, .nan) == false, "\(name)")
    }
    for side in ["top", "bottom", "left", "right"] {
      #expect(accepts(side, 0, in: LayoutField.padding) == true, "\(side)")
      #expect(accepts(side, -1, in: LayoutField.padding) == false, "\(side)")
      #expect(accepts(side, max + 1, in: LayoutField.padding) == false, "\(side)")
    }
    // maxLines and tabSize: integers from 1 to maxInteger.
    for name in ["maxLines", "tabSize"] {
      #expect(accepts(name, 0) == false && accepts(name, 1) == true, "\(name)")
      #expect(accepts(name, Double(LayoutLimits.maxInteger)) == true, "\(name)")
      #expect(accepts(name, Double(LayoutLimits.maxInteger) + 1) == false, "\(name)")
    }
  }
}
