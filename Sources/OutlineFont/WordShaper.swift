import CHarfBuzz
import CICUShim

/// A stretch of a word between two break opportunities: what line filling
/// works with. Advances are 16.16 fixed-point px; offsets are UTF-8 bytes
/// from the word's start.
struct Piece {
  /// Where its text ends, before the ideographic spaces (U+3000) that hang at a break.
  var contentEnd: UInt32
  /// Where it ends (the next piece starts here).
  var end: UInt32
  /// The advance of its text up to ``contentEnd``, shaped with the whole word.
  var width: Int64
  /// The advance of the hanging ideographic spaces.
  var hang: Int32
  /// Added to the width when a line ends after this piece and the word is
  /// unsafe to break there (kerning or a ligature across the break): the end
  /// is shaped again on its own.
  var endDelta: Int32
  /// Added when a wrapped line starts with this piece and the start is
  /// unsafe to break: the start is shaped again with no text before it.
  var startDelta: Int32
  /// Added (≤ 0) when the piece ends in a closing bracket that may take half
  /// its width at the end of a line, if the line does not fit otherwise.
  var trimDelta: Int32
}

/// Fonts a ``WordShaper`` draws from, in order: the named families, then
/// the system's fallback for a character none of them has.
protocol FontFallbackSource: AnyObject {
  /// The faces of the requested families the machine has, in order.
  var familyFonts: [ShapingFont] { get }
  /// The system's fallback face for `scalar` (`emoji`: a colour emoji face
  /// first), or `nil` when no installed font has it.
  func systemFallback(for scalar: UInt32, emoji: Bool) -> ShapingFont?
}

extension FontFallbackSource {
  /// Whether one of the requested families has a glyph for `scalar`.
  func familiesCover(_ scalar: UInt32) -> Bool {
    familyFonts.contains { $0.glyph(for: scalar) != nil }
  }
}

/// Shapes words with HarfBuzz and a font fallback list, as a browser's text
/// shaper does, and cuts them into ``Piece``s at their break opportunities.
///
/// A word is a run of text without breakable spaces (U+0020, U+0009) or
/// line feeds; words are shaped alone, which equals shaping the whole
/// paragraph because the fonts do not kern or ligate across spaces.
///
/// - Runs: the word is cut into runs of one script (UAX #24; Common and
///   Inherited characters join their neighbours) and one presentation
///   (emoji presentation per UTS #51, or text).
/// - Fallback: a run is shaped with the first family; its clusters with a
///   missing glyph are shaped again with the next family, and so on, then
///   with the system's fallback for their first character (fontconfig's
///   sorted list, language `en`). An emoji-presentation cluster (one with
///   U+FE0F, an Emoji_Presentation character, a flag, keycap, ZWJ or
///   modifier sequence) tries the colour emoji faces first, even when a text
///   face has its base character.
/// - Fullwidth punctuation collapsing: ``PunctuationSpacing``.
/// - Control characters (C0, C1) advance by 0.
///
/// A value type, so that its scratch arrays are accessed without dynamic
/// exclusivity checks in its loops. Not thread-safe: one shaper per
/// ``FontSet``, used under its lock.
struct WordShaper {
  private unowned let fonts: FontFallbackSource
  private let handles = Handles()
  private var buffer: OpaquePointer { handles.buffer }
  private var lineIterator: OpaquePointer? { handles.lineIterator }
  private var characterIterator: OpaquePointer? { handles.characterIterator }
  private let language = hb_language_from_string("en", -1)

  /// The HarfBuzz buffer and ICU iterators a shaper reuses, freed with it.
  private final class Handles {
    let buffer = hb_buffer_create()!
    let lineIterator = outline_icu_line_iterator(LineBreakRules.locale)
    let characterIterator = outline_icu_character_iterator("en")

    deinit {
      hb_buffer_destroy(buffer)
      if let lineIterator { outline_icu_close(lineIterator) }
      if let characterIterator { outline_icu_close(characterIterator) }
    }
  }
  private var hbScripts: [Int32: hb_script_t] = [:]

  // Scratch, sized to the longest word seen.
  private var u16: [UInt16] = []
  private var u8at: [UInt32] = []
  private var graphemeStart: [Bool] = []
  private var adv: [Int32] = []
  private var unsafe: [Bool] = []
  private var scratchAdv: [Int32] = []
  private var scratchUnsafe: [Bool] = []
  private var breaks: [Bool] = []
  private var clusterStart: [Bool] = []
  private var clusterAdvance: [Int64] = []
  private var clusterFlags: [UInt8] = []
  private var unitScript: [Int32] = []
  /// Fallback hints of the loaded word's runs: the unit where the run starts, the character.
  private var runHints: [(start: Int, scalar: UInt32)] = []
  private var runStarts: [Int] = []
  private var ascii = true
  private var n = 0

  /// Whether ASCII words may be shaped from pair tables (``AsciiPairs``)
  /// instead of HarfBuzz; tests compare the two.
  var shapesByPairs = true
  /// The first face's pair tables, looked up once (`.some(nil)`: it has none).
  private var pairTables: AsciiPairs?? = nil

  init(fonts: FontFallbackSource) {
    self.fonts = fonts
  }

  /// Bytes of scratch space held.
  var memoryFootprint: Int {
    u16.capacity * 2 + u8at.capacity * 4 + adv.capacity * 4 + scratchAdv.capacity * 4 + graphemeStart.capacity
      + unsafe.capacity + scratchUnsafe.capacity + breaks.capacity
  }

  // MARK: Words

  /// Shapes the UTF-8 word `word` and appends its pieces to `pieces` (at
  /// least one; an empty word is one empty piece).
  /// - Complexity: O(length) plus HarfBuzz's shaping of the word, and of
  ///   each piece that is unsafe to break at its ends.
  ///   - runs: where each script run starts, as ``ScriptRuns/appendRun(_:_:to:)``
  ///     encodes it (UTF-16 offset, ICU script code); an emoji-presentation
  ///     cluster is a run of its own too.
  mutating func appendPieces(
    of word: UnsafeBufferPointer<UInt8>, runs: UnsafeBufferPointer<UInt8>, to pieces: inout [Piece]
  ) {
    load(word, runs: runs)
    guard n > 0 else {
      pieces.append(Piece(contentEnd: 0, end: 0, width: 0, hang: 0, endDelta: 0, startDelta: 0, trimDelta: 0))
      return
    }
    shapeWord()
    u16.withUnsafeBufferPointer { t in
      LineBreakRules.markBreaks(
        UnsafeBufferPointer(rebasing: t[0..<n]), ascii: ascii, lineIterator: lineIterator, into: &breaks)
    }
    var start = 0
    for i in 1...n where i == n || breaks[i] {
      pieces.append(piece(start, i))
      start = i
    }
  }

  /// The grapheme clusters of `word` with their advances shaped in the
  /// whole word, as a browser places a caret: a cluster of glyphs that
  /// covers several grapheme clusters (a ligature, `ff`) shares its advance
  /// equally among them. `end` is the UTF-8 offset after the cluster;
  /// `endDelta` is added when a line is cut right after it where the word
  /// is unsafe to break (inside a ligature, or across kerning): the end is
  /// shaped again from the last safe place; `startDelta` when a line starts
  /// with it after such a cut: the start is shaped again up to the next safe
  /// place (the browser shapes a wrapped line's start alone); `trimDelta`
  /// (≤ 0) when it is a closing bracket that may take half its width at the
  /// end of a line. Used to cut a word longer than a line (`overflow-wrap:
  /// anywhere`).
  mutating func graphemes(of word: UnsafeBufferPointer<UInt8>, runs: UnsafeBufferPointer<UInt8>) -> [Grapheme] {
    load(word, runs: runs)
    guard n > 0 else { return [] }
    shapeWord()
    let clusters = Array(clusterStart[0...n])
    var out: [Grapheme] = []
    var starts: [Int] = []
    var c = 0
    while c < n {
      // One cluster of glyphs and the grapheme clusters that start in it; when it
      // starts inside a grapheme cluster (a conjunct shaped as several), that one
      // takes a share too.
      var end = c + 1
      while end < n && !clusters[end] { end += 1 }
      var inside: [Int] = []
      for i in c..<end where graphemeStart[i] || (i == c && out.isEmpty) { inside.append(i) }
      let continues = !inside.contains(c)
      let share = adv[c] / Int32(inside.count + (continues ? 1 : 0))
      var given: Int32 = 0
      if continues {
        let a = inside.isEmpty ? adv[c] : share
        out[out.count - 1].advance += a
        out[out.count - 1].end = u8at[inside.first ?? end]
        given = a
      }
      for (k, g) in inside.enumerated() {
        let last = k + 1 == inside.count
        let a = last ? adv[c] - given : share
        given += a
        out.append(Grapheme(end: u8at[last ? end : inside[k + 1]], advance: a))
        starts.append(g)
      }
      c = end
    }
    starts.append(n)
    func safe(_ i: Int) -> Bool { i == 0 || i == n || (clusters[i] && !unsafe[i]) }
    // Cutting inside a glyph cluster or before an unsafe break: shape the end again.
    var safeStart = 0
    var sum: Int64 = 0
    for k in out.indices {
      let end = starts[k + 1]
      sum += Int64(out[k].advance)
      if PunctuationClass.mayCloseLine(u16[end - 1]) {
        let trimmed = reshapedWidth(safeStart, end, lineStart: false, trimEnd: true)
        let whole = reshapedWidth(safeStart, end, lineStart: false, trimEnd: false)
        if trimmed < whole { out[k].trimDelta = Int32(clamping: trimmed - whole) }
      }
      guard end < n else { break }
      if safe(end) {
        safeStart = end
        sum = 0
        continue
      }
      out[k].endDelta = Int32(clamping: reshapedWidth(safeStart, end, lineStart: false, trimEnd: false) - sum)
    }
    // A line that starts after a cut where the word is unsafe to break: shape its start alone.
    for k in out.indices.dropFirst() where !safe(starts[k]) {
      var next = k + 1
      while !safe(starts[next]) { next += 1 }
      var shared: Int64 = 0
      for j in k..<next { shared += Int64(out[j].advance) }
      out[k].startDelta = Int32(
        clamping: reshapedWidth(starts[k], starts[next], lineStart: true, trimEnd: false) - shared)
    }
    return out
  }

  /// A grapheme cluster of a word as ``graphemes(of:runs:)`` gives it.
  struct Grapheme {
    var end: UInt32
    var advance: Int32
    var endDelta: Int32 = 0
    var startDelta: Int32 = 0
    var trimDelta: Int32 = 0
    /// When a soft hyphen was joined to this cluster (the line cutting never
    /// cuts before one, unless a line holds nothing else): where the soft
    /// hyphen starts, and the cluster's own advance. 0 when there is none.
    var softHyphenStart: UInt32 = 0
    var baseAdvance: Int32 = 0
  }

  private mutating func piece(_ s: Int, _ e: Int) -> Piece {
    var hangStart = e
    while hangStart > s && u16[hangStart - 1] == 0x3000 { hangStart -= 1 }
    var width: Int64 = 0
    for i in s..<hangStart { width += Int64(adv[i]) }
    var hang: Int32 = 0
    for i in hangStart..<e { hang &+= adv[i] }
    var p = Piece(
      contentEnd: u8at[hangStart], end: u8at[e], width: width, hang: hang, endDelta: 0, startDelta: 0, trimDelta: 0)
    let unsafeEnd = e < n && unsafe[e]
    let unsafeStart = s > 0 && unsafe[s]
    let closes = PunctuationClass.mayCloseLine(u16[e - 1])
    guard unsafeEnd || unsafeStart || closes else { return p }
    let alone = reshapedWidth(s, e, lineStart: false, trimEnd: false)
    if unsafeEnd { p.endDelta = Int32(clamping: alone - (width + Int64(hang))) }
    if unsafeStart { p.startDelta = Int32(clamping: reshapedWidth(s, e, lineStart: true, trimEnd: false) - alone) }
    if closes {
      let trimmed = reshapedWidth(s, e, lineStart: false, trimEnd: true) - alone
      if trimmed < 0 { p.trimDelta = Int32(clamping: trimmed) }
    }
    return p
  }

  /// Shapes the whole loaded word into `adv` and `unsafe`.
  private mutating func shapeWord() {
    var a: [Int32] = []
    var u: [Bool] = []
    swap(&a, &adv)
    swap(&u, &unsafe)
    shape(0, n, lineStart: false, trimEnd: false, into: &a, &u)
    swap(&a, &adv)
    swap(&u, &unsafe)
  }

  /// The advance of units `s..<e` of the loaded word shaped on their own.
  private mutating func reshapedWidth(_ s: Int, _ e: Int, lineStart: Bool, trimEnd: Bool) -> Int64 {
    var a: [Int32] = []
    var u: [Bool] = []
    swap(&a, &scratchAdv)
    swap(&u, &scratchUnsafe)
    shape(s, e, lineStart: lineStart, trimEnd: trimEnd, into: &a, &u)
    var w: Int64 = 0
    for i in s..<e { w += Int64(a[i]) }
    swap(&a, &scratchAdv)
    swap(&u, &scratchUnsafe)
    return w
  }

  /// Decodes `word` into the scratch UTF-16 text, finds its grapheme
  /// clusters and sets each unit's script from `runs`.
  private mutating func load(_ word: UnsafeBufferPointer<UInt8>, runs: UnsafeBufferPointer<UInt8>) {
    u16.removeAll(keepingCapacity: true)
    u8at.removeAll(keepingCapacity: true)
    ascii = true
    var offset: UInt32 = 0
    var it = word.makeIterator()
    var decoder = UTF8()
    loop: while true {
      switch decoder.decode(&it) {
      case .scalarValue(let s):
        let length = UInt32(UTF8.width(s))
        if s.value < 0x80 {
          u16.append(UInt16(s.value))
          u8at.append(offset)
        } else {
          ascii = false
          for unit in UTF16.encode(s)! {
            u16.append(unit)
            u8at.append(offset)
          }
        }
        offset += length
      case .emptyInput: break loop
      case .error:
        ascii = false
        u16.append(0xFFFD)
        u8at.append(offset)
        offset += 1
      }
    }
    n = u16.count
    u8at.append(UInt32(word.count))
    // Keep offsets monotone for a malformed tail.
    if n > 0 && u8at[n] < u8at[n - 1] { u8at[n] = u8at[n - 1] }
    let size = n + 1
    if adv.count < size {
      adv = Array(repeating: 0, count: size)
      scratchAdv = adv
      unsafe = Array(repeating: false, count: size)
      scratchUnsafe = unsafe
      breaks = unsafe
      graphemeStart = unsafe
      clusterStart = unsafe
      clusterAdvance = Array(repeating: 0, count: size)
      clusterFlags = Array(repeating: 0, count: size)
      unitScript = Array(repeating: 0, count: size)
    }
    for i in 0..<size { graphemeStart[i] = false }
    // Each unit's script: that of the last run starting at or before it.
    var from = 0
    var script = ScriptRuns.common
    runHints.removeAll(keepingCapacity: true)
    runStarts.removeAll(keepingCapacity: true)
    ScriptRuns.forEachRun(runs) { offset, next in
      if next == ScriptRuns.fallbackHint {
        runHints.append((runStarts.last ?? 0, UInt32(truncatingIfNeeded: offset)))
        return
      }
      runStarts.append(offset)
      let to = min(offset, size)
      if from < to { for i in from..<to { unitScript[i] = script } }
      from = max(from, to)
      script = next
    }
    for i in from..<size { unitScript[i] = script }
    guard n > 0 else { return }
    if ascii {
      for i in 0...n { graphemeStart[i] = true }
      return
    }
    graphemeStart[n] = true
    if let characterIterator,
      u16.withUnsafeBufferPointer({ outline_icu_set_text(characterIterator, $0.baseAddress, Int32(n)) })
    {
      var b = outline_icu_first(characterIterator)
      while b >= 0 {
        graphemeStart[Int(b)] = true
        b = outline_icu_next(characterIterator)
      }
    } else {
      for i in 0...n { graphemeStart[i] = !UTF16.isTrailSurrogate(i < n ? u16[i] : 0) }
    }
    joinConjuncts()
  }

  /// Applies Unicode 15.1's rule GB9c, which the system's ICU (Unicode 15.0)
  /// lacks and the browser's has: no grapheme cluster boundary inside a
  /// conjunct, a consonant then a virama (Indic_Conjunct_Break Linker, with
  /// marks around it) then a consonant, as `न्द` in `हिन्दी`.
  private mutating func joinConjuncts() {
    var consonant = false
    var linked = false
    for i in 0..<n {
      let c = u16[i]
      guard c >= 0x0900 else {
        consonant = false
        continue
      }
      switch IndicConjunctBreak(c) {
      case .consonant:
        if consonant && linked { graphemeStart[i] = false }
        consonant = true
        linked = false
      case .linker:
        linked = linked || consonant
      case .extend:
        break
      case .none:
        consonant = false
      }
    }
  }

  // MARK: Shaping

  /// Shapes units `s..<e` of the loaded word (the rest is context), writing
  /// each cluster's advance at its first unit into `advances` and marking
  /// units before which a break is unsafe in `unsafeBefore`.
  ///
  /// - Parameters:
  ///   - lineStart: the range starts a wrapped line: no text before it
  ///     collapses its first mark.
  ///   - trimEnd: the range ends a line with a closing mark that takes half its width.
  private mutating func shape(
    _ s: Int, _ e: Int, lineStart: Bool, trimEnd: Bool, into advances: inout [Int32], _ unsafeBefore: inout [Bool]
  ) {
    if ascii && shapesByPairs && shapeByPairs(s, e, into: &advances, &unsafeBefore) { return }
    for i in s..<e {
      advances[i] = 0
      unsafeBefore[i] = false
    }
    unsafeBefore[e] = false
    var runStart = s
    var runScript = unitScript[s]
    var runEmoji = false
    var i = s
    // Runs of one script (as the paragraph resolved it) and one presentation.
    while i < e {
      var j = i + 1
      while j < e && !graphemeStart[j] { j += 1 }
      let emoji = !ascii && isEmojiPresentation(i, j)
      let script = unitScript[i]
      if i == s {
        runEmoji = emoji
      } else if emoji != runEmoji || script != runScript {
        shapeRun(runStart, i, script: runScript, emoji: runEmoji, s, e, lineStart, trimEnd, &advances, &unsafeBefore)
        runStart = i
        runScript = script
        runEmoji = emoji
      }
      i = j
    }
    shapeRun(runStart, e, script: runScript, emoji: runEmoji, s, e, lineStart, trimEnd, &advances, &unsafeBefore)
  }

  /// Shapes units `s..<e` of an ASCII word in the Latin script from the
  /// first face's pair tables (``AsciiPairs``), when the face has every
  /// character and no pair needs HarfBuzz; false otherwise.
  private mutating func shapeByPairs(
    _ s: Int, _ e: Int, into advances: inout [Int32], _ unsafeBefore: inout [Bool]
  ) -> Bool {
    if pairTables == nil { pairTables = .some(fonts.familyFonts.first?.asciiPairs) }
    guard let pairs = pairTables! else { return false }
    for i in s..<e {
      let c = Int(u16[i])
      guard unitScript[i] == ScriptRuns.latin, c < 128, pairs.covered[c] else { return false }
      if i + 1 < e && pairs.flags[c << 7 | Int(u16[i + 1])] & 1 != 0 { return false }
    }
    for i in s..<e {
      let c = Int(u16[i])
      advances[i] = pairs.advance[c] &+ (i + 1 < e ? pairs.kern[c << 7 | Int(u16[i + 1])] : 0)
      unsafeBefore[i] = i > s && pairs.flags[Int(u16[i - 1]) << 7 | c] & 2 != 0
      clusterStart[i] = true
    }
    unsafeBefore[e] = false
    clusterStart[e] = true
    return true
  }

  private func scalar(at i: Int) -> UInt32 {
    let u = u16[i]
    if UTF16.isLeadSurrogate(u) && i + 1 < n && UTF16.isTrailSurrogate(u16[i + 1]) {
      return 0x10000 + ((UInt32(u) - 0xD800) << 10) + (UInt32(u16[i + 1]) - 0xDC00)
    }
    return UInt32(u)
  }

  /// Whether the grapheme cluster `i..<j` is shown as emoji (UTS #51 emoji
  /// presentation): VS16 after an emoji, a flag, keycap, ZWJ or modifier
  /// sequence, a tag sequence, or an Emoji_Presentation character without VS15.
  private func isEmojiPresentation(_ i: Int, _ j: Int) -> Bool {
    let first = scalar(at: i)
    guard first >= 0x23 else { return false }
    let props = outline_icu_emoji_properties(Int32(bitPattern: first))
    guard props != 0 else { return false }
    var k = i + (first > 0xFFFF ? 2 : 1)
    var second: UInt32? = nil
    var vs15 = false
    var vs16 = false
    var zwj = false
    var keycap = false
    while k < j {
      let c = scalar(at: k)
      if second == nil { second = c }
      switch c {
      case 0xFE0E: vs15 = true
      case 0xFE0F: vs16 = true
      case 0x200D: zwj = true
      case 0x20E3: keycap = true
      default: break
      }
      k += c > 0xFFFF ? 2 : 1
    }
    if vs15 { return false }
    if vs16 && props & UInt32(OUTLINE_ICU_EMOJI) != 0 { return true }
    if keycap && (first == 0x23 || first == 0x2A || (0x30...0x39).contains(first)) { return true }
    if let second {
      let p2 = outline_icu_emoji_properties(Int32(bitPattern: second))
      if props & UInt32(OUTLINE_ICU_REGIONAL_INDICATOR) != 0 && p2 & UInt32(OUTLINE_ICU_REGIONAL_INDICATOR) != 0 {
        return true
      }
      if props & UInt32(OUTLINE_ICU_EMOJI_MODIFIER_BASE) != 0 && p2 & UInt32(OUTLINE_ICU_EMOJI_MODIFIER) != 0 {
        return true
      }
    }
    if zwj && props & UInt32(OUTLINE_ICU_EXTENDED_PICTOGRAPHIC) != 0 { return true }
    return props & UInt32(OUTLINE_ICU_EMOJI_PRESENTATION) != 0
  }

  /// Shapes one run through the fallback list and commits each cluster's advance.
  private mutating func shapeRun(
    _ rs: Int, _ re: Int, script: Int32, emoji: Bool, _ s: Int, _ e: Int, _ lineStart: Bool, _ trimEnd: Bool,
    _ advances: inout [Int32], _ unsafeBefore: inout [Bool]
  ) {
    guard rs < re else { return }
    let hbScript = hbScript(for: script)
    let families = fonts.familyFonts
    var order: [ShapingFont] = emoji ? families.filter(\.isColor) + families.filter { !$0.isColor } : families
    var pending = [(rs, re)]
    var tried = 0
    // The paragraph's script run asks for its fallback first (``ScriptRuns/appendFallbackHint(_:to:)``).
    var runHintTried = emoji
    while !pending.isEmpty {
      let font: ShapingFont
      if tried < order.count {
        font = order[tried]
      } else if let f = nextFallback(rs, pending, emoji, &runHintTried, tried < order.count + 8, order) {
        order.append(f)
        font = f
      } else {
        // No face has these characters: the first face's missing glyph stands for them.
        for (a, b) in pending {
          guard let f = families.first ?? order.first else { break }
          commit(
            a, b, font: f, script: hbScript, s, e, lineStart, trimEnd, acceptMissing: true, &advances, &unsafeBefore)
        }
        return
      }
      tried += 1
      var missing: [(Int, Int)] = []
      for (a, b) in pending {
        missing += commit(
          a, b, font: font, script: hbScript, s, e, lineStart, trimEnd, acceptMissing: false, &advances, &unsafeBefore)
      }
      pending = missing
    }
  }

  /// The next system fallback face for the clusters `pending` of the run
  /// starting at unit `rs`, not yet in `order`: first that of the run's
  /// hint (once), then that of ``hint(_:)`` while `more`; `nil` when none is left.
  private func nextFallback(
    _ rs: Int, _ pending: [(Int, Int)], _ emoji: Bool, _ runHintTried: inout Bool, _ more: Bool,
    _ order: [ShapingFont]
  ) -> ShapingFont? {
    if !runHintTried {
      runHintTried = true
      if let c = runHint(rs), let f = fonts.systemFallback(for: c, emoji: false), !order.contains(where: { $0 === f }) {
        return f
      }
    }
    guard more, let f = fonts.systemFallback(for: hint(pending), emoji: emoji), !order.contains(where: { $0 === f })
    else { return nil }
    return f
  }

  /// The fallback hint of the paragraph's script run that unit `u` is in, if the word carries one.
  private func runHint(_ u: Int) -> UInt32? {
    guard !runHints.isEmpty else { return nil }
    var start = 0
    for s in runStarts where s <= u { start = s }
    return runHints.last { $0.start == start }?.scalar
  }

  /// The character the system's fallback is asked for, for the clusters
  /// `pending` no font has had yet: the first with a script of its own (not
  /// Common or Inherited), else the first, as the browser chooses its hint.
  private func hint(_ pending: [(Int, Int)]) -> UInt32 {
    for (a, b) in pending {
      var i = a
      while i < b {
        let c = scalar(at: i)
        if ScriptRuns.hasDefiniteScript(c) { return c }
        i += c > 0xFFFF ? 2 : 1
      }
    }
    return scalar(at: pending[0].0)
  }

  private mutating func hbScript(for icuScript: Int32) -> hb_script_t {
    if let s = hbScripts[icuScript] { return s }
    var s = HB_SCRIPT_COMMON
    if icuScript > 1, let code = outline_icu_script_code(icuScript) { s = hb_script_from_string(code, -1) }
    hbScripts[icuScript] = s
    return s
  }

  /// Shapes units `a..<b` with `font` and writes the advances of the clusters
  /// it has; returns the ranges of clusters with a missing glyph (written too
  /// when `acceptMissing`).
  @discardableResult
  private mutating func commit(
    _ a: Int, _ b: Int, font: ShapingFont, script: hb_script_t, _ s: Int, _ e: Int, _ lineStart: Bool, _ trimEnd: Bool,
    acceptMissing: Bool, _ advances: inout [Int32], _ unsafeBefore: inout [Bool]
  ) -> [(Int, Int)] {
    var features: [hb_feature_t] = []
    if font.hasHalt, let shapes = font.punctuation {
      collapsePunctuation(
        a, b, shapes: shapes, contextual: font.hasContextualSpacing, lineStart: lineStart && a == s,
        trimEnd: trimEnd && b == e, s, e, &features, &unsafeBefore)
    }
    if font.hasContextualSpacing {
      features.append(hb_feature_t(tag: hbTag("chws"), value: 1, start: 0, end: UInt32.max))
    }
    hb_buffer_clear_contents(buffer)
    u16.withUnsafeBufferPointer { hb_buffer_add_utf16(buffer, $0.baseAddress, Int32(n), UInt32(a), Int32(b - a)) }
    let direction = hb_script_get_horizontal_direction(script)
    hb_buffer_set_direction(buffer, direction == HB_DIRECTION_INVALID ? HB_DIRECTION_LTR : direction)
    hb_buffer_set_script(buffer, script)
    hb_buffer_set_language(buffer, language)
    hb_shape(font.font, buffer, features, UInt32(features.count))
    var count: UInt32 = 0
    guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
      let positions = hb_buffer_get_glyph_positions(buffer, &count)
    else { return [] }
    // Per cluster, kept at its first unit: advance, a missing glyph, unsafe to break before.
    for u in a..<b {
      clusterStart[u] = false
      clusterAdvance[u] = 0
      clusterFlags[u] = 0
    }
    clusterStart[a] = true
    for g in 0..<Int(count) {
      let c = Int(infos[g].cluster)
      guard c >= a && c < b else { continue }
      clusterStart[c] = true
      clusterAdvance[c] += Int64(positions[g].x_advance)
      if infos[g].codepoint == 0 { clusterFlags[c] |= 1 }
      if withUnsafePointer(to: infos[g], { hb_glyph_info_get_glyph_flags($0) }).rawValue
        & HB_GLYPH_FLAG_UNSAFE_TO_BREAK.rawValue != 0
      {
        clusterFlags[c] |= 2
      }
    }
    var missing: [(Int, Int)] = []
    var c = a
    while c < b {
      var end = c + 1
      var control = u16[c] < 0x20 || (0x7F...0x9F).contains(u16[c])
      while end < b && !clusterStart[end] {
        if !(u16[end] < 0x20 || (0x7F...0x9F).contains(u16[end])) { control = false }
        end += 1
      }
      if control {
        advances[c] = 0
      } else if clusterFlags[c] & 1 != 0 && !acceptMissing {
        if let last = missing.last, last.1 == c { missing[missing.count - 1].1 = end } else { missing.append((c, end)) }
      } else {
        advances[c] = Int32(clamping: clusterAdvance[c])
        if clusterFlags[c] & 2 != 0 && c > s { unsafeBefore[c] = true }
      }
      c = end
    }
    return missing
  }

  /// Fullwidth punctuation collapsing for a range shaped with a face that
  /// has `halt` (CSS Text 4 `text-spacing-trim: normal`): adds a `halt`
  /// feature at each mark that takes half its width and marks the break
  /// before it unsafe.
  ///
  /// A mark of class open after an open, middle, close or narrow-open mark
  /// collapses; a close mark before a close, middle or narrow-close mark
  /// collapses. Without `chws` this is done for every pair in the range;
  /// with it, HarfBuzz does the inside and only the edges are done here.
  private mutating func collapsePunctuation(
    _ a: Int, _ b: Int, shapes: PunctuationShapes, contextual: Bool, lineStart: Bool, trimEnd: Bool, _ s: Int,
    _ e: Int, _ features: inout [hb_feature_t], _ unsafeBefore: inout [Bool]
  ) {
    var may = trimEnd
    for i in a..<b where PunctuationClass.mayCollapse(u16[i]) {
      may = true
      break
    }
    guard may else { return }
    func halt(_ i: Int) {
      features.append(hb_feature_t(tag: hbTag("halt"), value: 1, start: UInt32(i), end: UInt32(i + 1)))
    }
    func unsafe(_ i: Int) { if i > s && i <= e { unsafeBefore[i] = true } }
    var last: SpacingClass
    if a > 0 && !lineStart {
      last = shapes.spacingClass(u16[a - 1])
      let current = shapes.spacingClass(u16[a])
      if PunctuationShapes.collapsesCurrent(current, after: last) {
        halt(a)
        unsafe(a)
      }
      last = current
    } else {
      last = shapes.spacingClass(u16[a])
    }
    if contextual {
      if trimEnd {
        halt(b - 1)
      } else if b < n {
        if b - 1 > a { last = shapes.spacingClass(u16[b - 1]) }
        if PunctuationShapes.collapsesLast(shapes.spacingClass(u16[b]), after: last) { halt(b - 1) }
      }
      return
    }
    var i = a + 1
    while i < b {
      let current = shapes.spacingClass(u16[i])
      if PunctuationShapes.collapsesLast(current, after: last) {
        halt(i - 1)
        unsafe(i)
      } else if PunctuationShapes.collapsesCurrent(current, after: last) {
        halt(i)
        unsafe(i)
      }
      last = current
      i += 1
    }
    if trimEnd {
      halt(b - 1)
    } else if b < n, PunctuationShapes.collapsesLast(shapes.spacingClass(u16[b]), after: last) {
      halt(b - 1)
    }
  }
}
