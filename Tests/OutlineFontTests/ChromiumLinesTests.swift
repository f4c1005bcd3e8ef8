import OutlineModel
import Testing

@testable import OutlineFont

/// The fonts the browser cross-check lays text out in (Debian's
/// fonts-noto-core, fonts-noto-cjk, fonts-noto-color-emoji; scripts/install-deps --tests).
let crossCheckFont = FontDescription(families: ["Noto Sans", "Noto Sans CJK SC", "Noto Color Emoji"], size: 14)

/// One source for the whole suite, as the server keeps one.
let fontSource = FontLineBreakers()

/// Unit `font` against the lines Chromium 156 draws for the same texts.
///
/// Every expected breaking below was measured in headless Chromium 156
/// (Debian), in a `div lang="en"` styled `white-space: pre-wrap;
/// overflow-wrap: anywhere; font: 14px/20px "Noto Sans", "Noto Sans CJK SC",
/// "Noto Color Emoji"` at the width given, each line read from the client
/// rects of its grapheme clusters (the driver of docs/text-layout.md,
/// "Cross-check: fonts in Chromium"). Spaces that hang at a break are left out.
@Suite struct ChromiumLinesTests {
  let breaker = fontSource.lineBreaker(font: crossCheckFont)

  @Test(arguments: [
    ("Real-time strategy game of ancient warfare", 120, ["Real-time strategy", "game of ancient", "warfare"]),
    (
      "ThinkPad hardware/firmware access modules source - dkms version", 120,
      ["ThinkPad", "hardware/firmwa", "re access", "modules source -", "dkms version"]
    ),
    (
      "Donaudampfschifffahrtsgesellschaftskapitänsmützenabzeichenhersteller und Rindfleischetikettierungsüberwachungsaufgabenübertragungsgesetz",
      120,
      [
        "Donaudampfschif", "ffahrtsgesellschaf", "tskapitänsmützen", "abzeichenherstell", "er und",
        "Rindfleischetiketti", "erungsüberwach", "ungsaufgabenüb", "ertragungsgesetz",
      ]
    ),
    (
      "KFind 可作为独立的搜索工具使用，如由 KRunner 或从你的菜单中启动。它也集成到了 Konqueror 中作为“工具”菜单中的“查找文件”功能。它能帮助你使用文件名、类型或内容查找文件。", 173,
      [
        "KFind 可作为独立的搜索工", "具使用，如由 KRunner 或", "从你的菜单中启动。它也集", "成到了 Konqueror 中作为", "“工具”菜单中的“查找文件”", "功能。它能帮助你使用文件",
        "名、类型或内容查找文件。",
      ]
    ),
    (
      "コマンドラインプログラムである 'cabal' は、Haskell のライブラリ群とプログラム群の、取得、コンフィギュレーション、コンパイル、インストールを自動化することで Haskell のソフトウェアの管理プロセスを簡単にします。",
      120,
      [
        "コマンドラインプ", "ログラムである", "'cabal' は、", "Haskell のライブ", "ラリ群とプログラ", "ム群の、取得、コ", "ンフィギュレーシ", "ョン、コンパイ", "ル、インストール",
        "を自動化すること", "で Haskell のソフ", "トウェアの管理プ", "ロセスを簡単にし", "ます。",
      ]
    ),
    (
      "テキストに対して、あらゆる種類の処理をおこなうフィルタ集です。人気の高い B1FF やスウェーデン語版 Chef をはじめ、幅広いフィルタが含まれています。", 317,
      ["テキストに対して、あらゆる種類の処理をおこな", "うフィルタ集です。人気の高い B1FF やスウェーデ", "ン語版 Chef をはじめ、幅広いフィルタが含まれて", "います。"]
    ),
    (
      " * debian/changelog（debian.changelog 模块）\n * Packages 文件、pdiff 文件", 173,
      [" * debian/changelog", "（debian.changelog 模", "块）", " * Packages 文件、pdiff 文", "件"]
    ),
    ("x\u{3000}\u{3000}\u{3000}\u{3000}\u{3000}\u{3000}\u{3000}\u{3000}\u{3000}\u{3000}y", 100, ["x", "y"]),
    ("abc\n", 100, ["abc"]),
    ("abc\n\n", 100, ["abc", ""]),
    ("\n", 100, [""]),
    (
      "Party 🎉🎉🎉 time ❤\u{FE0F} ☺\u{FE0F} 👨\u{200D}👩\u{200D}👧 🇫🇷 done and 1\u{FE0F}\u{20E3} 👍🏽 more", 120,
      ["Party 🎉🎉🎉", "time ❤\u{FE0F} ☺\u{FE0F} 👨\u{200D}👩\u{200D}👧 🇫🇷", "done and 1\u{FE0F}\u{20E3} 👍🏽", "more"]
    ),
    ("aaaa bbbb cccc dddd", 100, ["aaaa bbbb cccc", "dddd"]),
    ("مرحبا بالعالم هذا نص عربي طويل للاختبار", 120, ["مرحبا بالعالم هذا نص", "عربي طويل للاختبار"]),
    ("שלום עולם זהו טקסט בעברית לבדיקה", 100, ["שלום עולם זהו", "טקסט בעברית", "לבדיקה"]),
    ("ภาษาไทยไม่มีช่องว่างระหว่างคำนะครับ", 80, ["ภาษาไทยไม่มี", "ช่องว่าง", "ระหว่างคำนะ", "ครับ"]),
    ("key:\tvalue\twith\ttabs and words", 100, ["key:\tvalue", "with\ttabs", "and words"]),
    (
      "a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s/t/u/v/w/x/y/z", 120,
      ["a/b/c/d/e/f/g/h/i/j", "/k/l/m/n/o/p/q/r/s", "/t/u/v/w/x/y/z"]
    ),
    ("中文、中文。「引用」（括弧）と…《书名》", 90, ["中文、中文。", "「引用」（括", "弧）と…《书", "名》"]),
    (
      "path /usr/share/doc/package-name/README.Debian.gz here", 120,
      ["path", "/usr/share/doc/pa", "ckage-", "name/README.D", "ebian.gz here"]
    ),
    ("in 1.5.0-1 (-5 °C) ABC-123 x-1", 60, ["in 1.5.0-1", "(-5 °C)", "ABC-123", "x-1"]),
    ("ソフトウェアのインストールとアップデート", 60, ["ソフトウ", "ェアのイ", "ンストー", "ルとアッ", "プデート"]),
    ("مرحبا بالعالم", 30, ["مرحب", "ا", "بالعال", "م"]),
    ("ah?「か。。ナ", 40, ["ah?", "「か。", "。ナ"]),
  ])
  func breaksWhereChromiumBreaks(text: String, width: Double, expected: [String]) {
    let lines = breaker.lines(text, width: width).map { String($0).trimmingTrailing() }
    #expect(lines == expected)
    #expect(breaker.lineCount(text, width: width) == expected.count)
  }

  /// Texts the engine once broke elsewhere than Chromium
  /// (Tests/text/font-regressions.txt), with the lines Chromium 156 drew.
  @Test(arguments: [
    // After a cut inside a ligature, the next line's start is shaped alone (`fi`, not ⅔ of `ffi`).
    (
      "ffiffiffiffiffiffiffiffiffiffiffiffiffiffiffiffiffiffiffiffi", 22,
      [
        "ffif", "fiffi", "ffif", "fiffi", "ffif", "fiffi", "ffif", "fiffi", "ffif", "fiffi", "ffif", "fiffi", "ffif",
        "fi",
      ]
    ),
    (
      "officialofficialofficialofficialofficialofficialofficialofficial", 34,
      ["offici", "aloffi", "cialo", "fficia", "loffic", "ialoff", "icialo", "fficia", "loffic", "ialoff", "icial"]
    ),
    (
      "officialofficialofficialofficialofficialofficialofficialofficial", 39,
      ["offici", "aloffi", "cialof", "ficialo", "fficial", "offici", "aloffi", "cialof", "ficialo", "fficial"]
    ),
    (
      "officialofficialofficialofficialofficialofficialofficialofficial", 52,
      ["officialo", "fficialof", "ficialoffi", "cialoffic", "ialoffici", "alofficia", "lofficial"]
    ),
    // Spaces that start a paragraph are an item of their own, rounded up to a layout unit apart.
    ("   (as in Rossi et al, JASA (01)).", 100, ["   (as in Rossi", "et al, JASA", "(01))."]),
    ("  * ClamAVd:   ClamAV スキャナ", 142, ["  * ClamAVd:", "ClamAV スキャナ"]),
    ("  * 离线（off-line）ASN1 结构管理", 114, ["  * 离线（off-", "line）ASN1 结构", "管理"]),
    ("x\n   (as in Rossi et al, JASA (01)).", 100, ["x", "   (as in Rossi", "et al, JASA", "(01))."]),
    ("(as in Rossi et al, JASA (01)).", 100, ["(as in Rossi et", "al, JASA (01))."]),
    // A script run takes its first fallback font from its first missing character in the paragraph.
    ("மொழியில் ஒரு வாக்கியம். ગુજરાતી ભાષામાં", 122, ["மொழியில் ஒரு", "வாக்கியம். ગુજરાતી", "ભાષામાં"]),
    ("வாக்கியம். ગુજરાતી ભાષામાં", 122, ["வாக்கியம்.", "ગુજરાતી ભાષામાં"]),
    // A closing bracket may take half its width at the end of a line cut anywhere.
    ("「本当！」……", 35, ["「本", "当！」", "……"]),
    ("〈〉“”", 23, ["〈〉", "“”"]),
    // A line that starts inside a word finds its break opportunities from its start.
    ("กรุงเทพมหานครเป็นเมืองหลวง", 41, ["กรุงเท", "พ", "มหานค", "รเป็น", "เมือง", "หลวง"]),
    ("AVX-512,", 26, ["AVX", "-51", "2,"]),
    ("AVX-512,AVX-512,", 26, ["AVX", "-51", "2,A", "VX-", "512", ","]),
    ("2024-03-15", 20, ["20", "24", "-0", "3-", "15"]),
    // A Devanagari conjunct is one grapheme cluster (Unicode 15.1, GB9c).
    ("हिन्दी में", 23, ["हि", "न्दी", "में"]),
    // A soft hyphen at 1 px takes a line of its own.
    ("ab\u{ad}cd", 1, ["a", "b", "\u{ad}", "c", "d"]),
  ])
  func breaksWhereChromiumBreaksAtTheEdges(text: String, width: Double, expected: [String]) {
    let lines = breaker.lines(text, width: width).map { String($0).trimmingTrailing() }
    #expect(lines == expected)
    #expect(breaker.lineCount(text, width: width) == expected.count)
  }

  /// A line that breaks at a soft hyphen shows a hyphen: Chromium draws
  /// `aaaa‐` and the next line starts with `bbbb`, each line taking the hyphen's
  /// advance; a word cut because it does not fit is not cut before a soft hyphen.
  @Test func softHyphensBreakWithTheHyphensAdvance() {
    let text = "aaaa\u{AD}bbbb\u{AD}cccc\u{AD}dddd"
    #expect(breaker.lines(text, width: 60).map(String.init) == ["aaaa\u{AD}", "bbbb\u{AD}", "cccc\u{AD}", "dddd"])
    // 4 × a (31.42 px) and the hyphen (4.51 px) fit in 36 px, not in 35.5.
    #expect(breaker.lineCount("aaaa\u{AD}bbbb", width: 36) == 2)
    #expect(breaker.lineCount("aaaa\u{AD}bbbb", width: 35.5) == 3)
    #expect(breaker.lines("aaaa\u{AD}bbbb", width: 35.5).map(String.init) == ["aaa", "a\u{AD}", "bbbb"])
  }

  /// Widths Chromium reports for a `white-space: pre` span (its width in
  /// layout units of 1/64 px, rounded up).
  @Test(arguments: [
    ("a", 7.859375), ("Hello", 33.96875), ("AV", 16.796875), ("To", 15.28125), ("fi", 8.4375), ("\u{1F600}", 17),
    ("\u{263A}\u{FE0F}", 17), ("中文", 28), ("中a", 21.859375), ("（中）", 42), ("中，「中」", 63), ("xyz", 21.140625),
    ("'cabal' は、Haskell", 119.28125), ("は、", 28),
  ])
  func advancesAreChromiums(text: String, width: Double) {
    #expect((breaker.advance(of: text) * 64).rounded(.up) / 64 == width)
  }

  /// Emoji advance by whole pixels, rounded from the colour font's metrics
  /// (Chromium: 12 px at 10 px, 15 at 12, 19 at 15, 25 at 20, 30 at 24).
  @Test(arguments: [(10.0, 12.0), (12, 15), (15, 19), (20, 25), (24, 30)])
  func emojiAdvanceByWholePixels(size: Double, width: Double) {
    let b = fontSource.lineBreaker(font: FontDescription(families: crossCheckFont.families, size: size))
    #expect(b.advance(of: "\u{1F600}") == width)
  }

  @Test func theFamiliesUsedLeaveOutWhatTheMachineLacks() {
    let b = fontSource.lineBreaker(font: FontDescription(families: ["No Such Family", "Noto Sans"], size: 14))
    #expect(b.families == ["Noto Sans"])
    #expect(breaker.families == crossCheckFont.families)
    let none = fontSource.lineBreaker(font: FontDescription(families: ["No Such Family"], size: 14))
    #expect(none.families == [])
    // The system's default face still draws.
    #expect(none.advance(of: "abc") > 0)
  }
}

extension String {
  /// Without the spaces, tabs and ideographic spaces at the end.
  fileprivate func trimmingTrailing() -> String {
    var s = Substring(self)
    while let last = s.last, last == " " || last == "\t" || last == "\u{3000}" { s = s.dropLast() }
    return String(s)
  }
}
