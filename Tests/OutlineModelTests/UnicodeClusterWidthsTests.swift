import Testing

@testable import OutlineModel

@Suite struct UnicodeClusterWidthsTests {
  let u = UnicodeClusterWidths()

  @Test(arguments: [
    // ASCII and Latin
    ("a", ClusterWidthClass.narrow),
    (" ", .narrow),
    ("é", .narrow),
    ("e\u{301}", .narrow),
    ("\u{00A0}", .narrow),
    // East Asian Width W and F (UAX #11)
    ("中", .wide),
    ("か", .wide),
    ("カ", .wide),
    ("한", .wide),
    ("\u{1100}\u{1161}\u{11A8}", .wide),
    ("Ａ", .wide),
    ("。", .wide),
    ("\u{20000}", .wide),
    ("\u{3FFFD}", .wide),
    // East Asian Width A, H, N, Na: narrow
    ("ｶ", .narrow),
    ("α", .narrow),
    ("→", .narrow),
    ("ש", .narrow),
    ("ب", .narrow),
    // Emoji (UTS #51)
    ("😀", .wide),
    ("👨\u{200D}🦲", .wide),
    ("👍🏽", .wide),
    ("🇫🇷", .wide),
    ("1\u{FE0F}\u{20E3}", .wide),
    ("#\u{20E3}", .wide),
    ("☺\u{FE0F}", .wide),
    ("❤\u{FE0F}", .wide),
    ("🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}", .wide),
    ("☺", .narrow),
    ("❤", .narrow),
    ("a\u{FE0F}", .narrow),
    // Zero width: combining, format, default-ignorable, controls
    ("\u{301}", .zero),
    ("\u{200B}", .zero),
    ("\u{200D}", .zero),
    ("\u{FE0F}", .zero),
    ("\u{AD}", .zero),
    ("\u{2060}", .zero),
    ("\u{E0001}", .zero),
    ("\u{1}", .zero),
    ("\u{7F}", .zero),
    ("\u{1160}", .zero),
    ("\u{3099}", .zero),
    ("\u{3164}", .zero),
    ("\u{93E}", .zero),
    ("\u{915}\u{93F}", .narrow),
    ("\u{115F}\u{1161}", .wide),
    // A cluster begun by a zero-width prepend takes the class of its base.
    ("\u{600}1", .narrow),
  ])
  func classifiesClusters(text: String, expected: ClusterWidthClass) {
    #expect(text.count == 1)
    let cluster = Character(text)
    #expect(u.widthClass(of: cluster) == expected, "U+\(String(cluster.unicodeScalars.first!.value, radix: 16))")
  }

  @Test func tableIsGeneratedFromADeclaredUnicodeVersion() {
    let parts = UnicodeClusterWidths.unicodeVersion.split(separator: ".").compactMap { Int($0) }
    #expect(parts.count == 3)
    #expect(parts[0] >= 15)
  }

  @Test func generatedTablesAreSortedDisjointRanges() {
    let tables = [
      UnicodeWidthData.zeroWidth, UnicodeWidthData.wide, UnicodeWidthData.emoji,
      UnicodeWidthData.emojiModifierBase, UnicodeWidthData.extendedPictographic, UnicodeWidthData.noLineStart,
    ]
    for t in tables {
      #expect(t.count % 2 == 0)
      var previousLast: Int64 = -1
      for k in stride(from: 0, to: t.count, by: 2) {
        #expect(t[k] <= t[k + 1])
        #expect(Int64(t[k]) > previousLast + 1 || previousLast < 0)
        previousLast = Int64(t[k + 1])
      }
      #expect(previousLast <= 0x10FFFF)
    }
  }

  @Test func generatedTablesAgreeWithTheStandardLibraryWhereTheyOverlap() {
    // The standard library's own Unicode data may be newer; scalars both
    // versions assign must agree on the emoji properties and combining marks.
    var checked = 0
    for v in UInt32(0)...0x10FFFF {
      guard let s = Unicode.Scalar(v), s.properties.age.map({ $0.major < 15 }) ?? false else { continue }
      #expect(UnicodeClusterWidths.contains(UnicodeWidthData.emoji, v) == s.properties.isEmoji, "U+\(v)")
      let category = s.properties.generalCategory
      if category == .nonspacingMark || category == .enclosingMark {
        #expect(UnicodeClusterWidths.widthClass(of: s) == .zero, "U+\(v)")
      }
      checked += 1
    }
    #expect(checked > 140_000)
  }

  @Test func tableLookupFindsRangeEdges() {
    let t: [UInt32] = [0x10, 0x20, 0x30, 0x30]
    #expect(!UnicodeClusterWidths.contains(t, 0xF))
    #expect(UnicodeClusterWidths.contains(t, 0x10))
    #expect(UnicodeClusterWidths.contains(t, 0x20))
    #expect(!UnicodeClusterWidths.contains(t, 0x21))
    #expect(UnicodeClusterWidths.contains(t, 0x30))
    #expect(!UnicodeClusterWidths.contains(t, 0x31))
    #expect(!UnicodeClusterWidths.contains([], 0))
  }
}
