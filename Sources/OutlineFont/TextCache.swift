import OutlineModel

/// The caches of one ``FontSet``: every word shaped once (its pieces and
/// advances), every text segmented once (its words and the spaces after
/// them). Breaking a cached text at a new width walks its pieces; nothing is
/// shaped again.
///
/// A value type held by the font set, so that its arrays are accessed
/// without dynamic exclusivity checks in its loops. Not thread-safe: used
/// under the ``FontEngine``'s lock.
struct TextCache {
  /// The advance of U+0020 in the first face that has it, 16.16 px.
  let spaceAdvance: Int64
  /// The hyphen a line broken at a soft hyphen ends with, UTF-8.
  private let hyphen: [UInt8]
  private var hyphenWidth: Int32? = nil
  private var shaper: WordShaper
  private let scanner = BreakScanner()

  // Words: key (bytes, 0xFF, script runs) → index; each word's pieces in one arena.
  private var wordTable = ByteKeyTable()
  private var words: [Word] = []
  private var pieces: [Piece] = []
  private var graphemes: [WordShaper.Grapheme] = []
  // Scratch for segmenting a text.
  private var key: [UInt8] = []
  private var scripts: [Int32] = []
  private var scriptStarts: [Int] = []
  /// Per scalar of the text being segmented: the fallback hint its script run
  /// had before it (0: none yet), and the scalar itself when no requested
  /// family has it and it has a script of its own (else 0).
  private var hintBefore: [UInt32] = []
  private var holes: [UInt32] = []
  private unowned let fonts: FontFallbackSource
  // Texts: bytes → index; each text's tokens (word, spaces after it) in one arena.
  private var textTable = ByteKeyTable()
  private var texts: [(start: UInt32, count: UInt32)] = []
  private var tokens: [Token] = []

  /// The caches are emptied when they hold more than about this many bytes.
  static let cacheLimit = 512 << 20

  private struct Word {
    var firstPiece: UInt32
    var pieceCount: UInt32
    var length: UInt32
    /// The word's key in the word table: its bytes, 0xFF, its script runs.
    var keyStart: UInt32
    var keyLength: UInt32
    var firstGrapheme: UInt32 = UInt32.max
    var graphemeCount: UInt32 = 0
    /// When a line that starts inside it finds its break opportunities
    /// afresh (``BreakScanner``): the browser's line break iterator starts at
    /// the line's start, and for this word what comes before may matter.
    var freshBreaks = BreakScanner.Context.none
  }

  /// A word and the breakable white space after it, in 8 bytes: the word's
  /// index (32 bits), the bytes of spaces and tabs after it (30 bits),
  /// whether they hold a tab, whether a line feed follows them.
  private struct Token {
    private var bits: UInt64

    init(word: UInt32, spaces: Int, tab: Bool) {
      bits = UInt64(word) | UInt64(min(spaces, (1 << 30) - 1)) << 32 | (tab ? 1 << 62 : 0)
    }

    var word: UInt32 { UInt32(truncatingIfNeeded: bits) }
    var spaces: UInt32 { UInt32(truncatingIfNeeded: bits >> 32) & ((1 << 30) - 1) }
    var hasTab: Bool { bits & (1 << 62) != 0 }
    var lineFeed: Bool {
      get { bits & (1 << 63) != 0 }
      set { bits = newValue ? bits | 1 << 63 : bits & ~(1 << 63) }
    }
  }

  /// Caches over `fonts`.
  /// - Parameters:
  ///   - spaceAdvance: the advance of a space, 16.16 px.
  ///   - hyphen: the UTF-8 of the hyphen shown where a line breaks at a soft hyphen.
  init(fonts: FontFallbackSource, spaceAdvance: Int64, hyphen: [UInt8]) {
    self.shaper = WordShaper(fonts: fonts)
    self.fonts = fonts
    self.spaceAdvance = spaceAdvance
    self.hyphen = hyphen
  }

  /// Whether ASCII words are shaped from pair tables rather than HarfBuzz
  /// (the same result; tests turn it off to compare). Setting it empties the caches.
  var shapesByPairs: Bool {
    get { shaper.shapesByPairs }
    set {
      shaper.shapesByPairs = newValue
      removeAll()
    }
  }

  /// The advance of ``hyphen``, shaped once.
  private mutating func hyphenAdvance() -> Int32 {
    if let w = hyphenWidth { return w }
    var shaped: [Piece] = []
    var runs: [UInt8] = []
    ScriptRuns.appendRun(0, ScriptRuns.common, to: &runs)
    hyphen.withUnsafeBufferPointer { h in
      runs.withUnsafeBufferPointer { shaper.appendPieces(of: h, runs: $0, to: &shaped) }
    }
    let w = Int32(clamping: shaped.reduce(0) { $0 + $1.width })
    hyphenWidth = w
    return w
  }

  /// Bytes held by the caches (words, pieces, texts, scratch).
  var footprint: Int {
    wordTable.memoryFootprint + textTable.memoryFootprint + words.capacity * MemoryLayout<Word>.stride
      + pieces.capacity * MemoryLayout<Piece>.stride + graphemes.capacity * MemoryLayout<WordShaper.Grapheme>.stride
      + key.capacity + scripts.capacity * 4 + scriptStarts.capacity * 8
      + texts.capacity * MemoryLayout<(UInt32, UInt32)>.stride + tokens.capacity * MemoryLayout<Token>.stride
      + shaper.memoryFootprint
  }

  /// What the caches hold, counted cheaply (without capacity slack or tables).
  private var approximateCacheBytes: Int {
    tokens.count * MemoryLayout<Token>.stride + pieces.count * MemoryLayout<Piece>.stride
      + words.count * MemoryLayout<Word>.stride + graphemes.count * MemoryLayout<WordShaper.Grapheme>.stride
      + texts.count * 64
  }

  /// The number of distinct words and texts cached.
  var counts: (words: Int, texts: Int) { (words.count, texts.count) }

  /// Empties the word and text caches.
  mutating func removeAll() {
    scanner.removeAll()
    wordTable.removeAll()
    words = []
    pieces = []
    graphemes = []
    textTable.removeAll()
    texts = []
    tokens = []
  }

  // MARK: Segmenting and caching

  /// The word whose key (bytes, 0xFF, script runs) is in `key`; shaped the first time.
  private mutating func wordIndex(key: [UInt8], length: Int) -> UInt32 {
    key.withUnsafeBufferPointer { k in
      let hash = ByteKeyTable.hash(k)
      if let w = wordTable.value(for: k, hash: hash) { return w }
      let first = UInt32(pieces.count)
      let bytes = UnsafeBufferPointer(rebasing: k[0..<length])
      shaper.appendPieces(of: bytes, runs: Self.runs(k, length), to: &pieces)
      // A line that breaks at a soft hyphen shows a hyphen: it takes its advance.
      for p in Int(first)..<pieces.count {
        let end = Int(pieces[p].contentEnd)
        if end >= 2 && bytes[end - 2] == 0xC2 && bytes[end - 1] == 0xAD { pieces[p].endDelta += hyphenAdvance() }
      }
      let w = UInt32(words.count)
      let keyStart = wordTable.insert(k, hash: hash, value: w)
      words.append(
        Word(
          firstPiece: first, pieceCount: UInt32(pieces.count) - first, length: UInt32(length), keyStart: keyStart,
          keyLength: UInt32(k.count), freshBreaks: BreakScanner.context(of: bytes)))
      return w
    }
  }

  /// The script runs a word key holds after its bytes and 0xFF (``ScriptRuns/appendRun(_:_:to:)``).
  private static func runs(_ key: UnsafeBufferPointer<UInt8>, _ length: Int) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(rebasing: key[min(length + 1, key.count)...])
  }

  /// The tokens of `text`, segmented and shaped the first time it is seen.
  private mutating func textTokens(_ text: UnsafeBufferPointer<UInt8>) -> Range<Int> {
    let hash = ByteKeyTable.hash(text)
    if let t = textTable.value(for: text, hash: hash) {
      let e = texts[Int(t)]
      return Int(e.start)..<Int(e.start + e.count)
    }
    if approximateCacheBytes > Self.cacheLimit { removeAll() }
    // Scratch in locals, so the word lookups below can take `self`.
    var key: [UInt8] = []
    swap(&key, &self.key)
    defer { swap(&key, &self.key) }
    let start = tokens.count
    let n = text.count
    // Script runs continue across line feeds, as the browser shapes the whole text.
    var ascii = true
    var letters = false
    for b in text {
      if b >= 0x80 {
        ascii = false
        break
      }
      if (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A { letters = true }
    }
    let fixedScript = letters ? ScriptRuns.latin : ScriptRuns.common
    if !ascii {
      ScriptRuns.resolve(text, scripts: &scripts, starts: &scriptStarts)
      findFallbackHints(text)
    }
    var scalar = 0
    var i = 0
    while i < n {
      // One paragraph: up to a line feed.
      var end = i
      while end < n && text[end] != 0x0A { end += 1 }
      var j = i
      repeat {
        let wordStart = j
        while j < end && text[j] != 0x20 && text[j] != 0x09 { j += 1 }
        key.removeAll(keepingCapacity: true)
        key.append(contentsOf: text[wordStart..<j])
        key.append(0xFF)
        if ascii {
          ScriptRuns.appendRun(0, fixedScript, to: &key)
        } else {
          // The script runs of the word, from the text's resolution.
          var unit = 0
          var last: Int32 = -1
          while scalar < scriptStarts.count && scriptStarts[scalar] < wordStart { scalar += 1 }
          while scalar < scriptStarts.count && scriptStarts[scalar] < j {
            if scripts[scalar] != last {
              ScriptRuns.appendRun(unit, scripts[scalar], to: &key)
              last = scripts[scalar]
              if hintBefore[scalar] != 0, let hint = fallbackHint(at: scalar, before: j) {
                ScriptRuns.appendFallbackHint(hint, to: &key)
              }
            }
            let next = scalar + 1 < scriptStarts.count ? scriptStarts[scalar + 1] : n
            unit += next - scriptStarts[scalar] == 4 ? 2 : 1
            scalar += 1
          }
          if last == -1 { ScriptRuns.appendRun(0, ScriptRuns.common, to: &key) }
        }
        let w = wordIndex(key: key, length: j - wordStart)
        var spaces = 0
        var tab = false
        while j < end && (text[j] == 0x20 || text[j] == 0x09) {
          if text[j] == 0x09 { tab = true }
          spaces += 1
          j += 1
        }
        if spaces >= 1 << 30 {
          // More spaces than a token counts: the rest follow an empty word.
          tokens.append(Token(word: w, spaces: (1 << 30) - 1, tab: tab))
          tokens.append(
            Token(
              word: wordIndex(key: [0xFF, 0, UInt8(ScriptRuns.common)], length: 0), spaces: spaces - (1 << 30) + 1,
              tab: tab))
        } else {
          tokens.append(Token(word: w, spaces: spaces, tab: tab))
        }
      } while j < end
      if end < n { tokens[tokens.count - 1].lineFeed = true }
      i = end + 1
    }
    let t = UInt32(texts.count)
    texts.append((UInt32(start), UInt32(tokens.count - start)))
    textTable.insert(text, hash: hash, value: t)
    return start..<tokens.count
  }

  /// Finds, for every scalar of `text` (resolved into ``scripts``), the
  /// character its script run asks the system's fallback for first: the
  /// first one before it in the run that has a script of its own and that
  /// no requested family has. The browser shapes a run (within a paragraph,
  /// between tabs) as a whole and takes its first fallback font for that
  /// character, so `வாக்கியம்` after `மொழியில்` takes Noto Sans Tamil, the
  /// font `ம` falls back to, though `வ` alone falls back to another.
  /// - Complexity: O(scalars), one glyph lookup per family for each
  ///   non-ASCII scalar with a script of its own.
  private mutating func findFallbackHints(_ text: UnsafeBufferPointer<UInt8>) {
    hintBefore.removeAll(keepingCapacity: true)
    holes.removeAll(keepingCapacity: true)
    var hint: UInt32 = 0
    for i in scriptStarts.indices {
      if i > 0 {
        let previous = text[scriptStarts[i - 1]]
        if scripts[i] != scripts[i - 1] || previous == 0x0A || previous == 0x09 { hint = 0 }
      }
      hintBefore.append(hint)
      let c = Self.scalar(text, at: scriptStarts[i])
      let hole = c >= 0x80 && ScriptRuns.hasDefiniteScript(c) && !fonts.familiesCover(c)
      holes.append(hole ? c : 0)
      if hole && hint == 0 { hint = c }
    }
  }

  /// The fallback hint a word's run starting at scalar `first` (and ending
  /// before byte `end`) must carry: its script run's hint from before it,
  /// when the word's own first missing character would fall back to another
  /// font; else `nil`.
  private func fallbackHint(at first: Int, before end: Int) -> UInt32? {
    var k = first
    while k < scriptStarts.count && scriptStarts[k] < end && scripts[k] == scripts[first] {
      if holes[k] != 0 {
        let hint = hintBefore[first]
        let own = fonts.systemFallback(for: holes[k], emoji: false)
        return fonts.systemFallback(for: hint, emoji: false) === own ? nil : hint
      }
      k += 1
    }
    return nil
  }

  /// The scalar whose UTF-8 starts at byte `i` of `text` (U+FFFD where it is malformed).
  private static func scalar(_ text: UnsafeBufferPointer<UInt8>, at i: Int) -> UInt32 {
    let b = UInt32(text[i])
    func next(_ k: Int) -> UInt32 { i + k < text.count ? UInt32(text[i + k]) & 0x3F : 0 }
    switch b {
    case ..<0x80: return b
    case 0xC0..<0xE0: return (b & 0x1F) << 6 | next(1)
    case 0xE0..<0xF0: return (b & 0x0F) << 12 | next(1) << 6 | next(2)
    case 0xF0..<0xF8: return (b & 0x07) << 18 | next(1) << 12 | next(2) << 6 | next(3)
    default: return 0xFFFD
    }
  }

  /// Measures the grapheme clusters of word `w` (its bytes `bytes`), for
  /// cutting it. A soft hyphen is not cut before: it goes with the cluster
  /// before it, which then ends a line with the hyphen's advance, as in the browser.
  private mutating func computeGraphemes(_ w: Int, _ bytes: UnsafeBufferPointer<UInt8>) {
    if words[w].firstGrapheme == UInt32.max {
      let word = words[w]
      var runs: [UInt8] = []
      wordTable.withKey(at: word.keyStart, length: word.keyLength) { runs = Array(Self.runs($0, Int(word.length))) }
      var g: [WordShaper.Grapheme] = []
      var start: UInt32 = 0
      for cluster in runs.withUnsafeBufferPointer({ shaper.graphemes(of: bytes, runs: $0) }) {
        let softHyphen = cluster.end - start == 2 && bytes[Int(start)] == 0xC2 && bytes[Int(start) + 1] == 0xAD
        start = cluster.end
        guard softHyphen else {
          g.append(cluster)
          continue
        }
        let hyphen = Int32(hyphenAdvance())
        if var last = g.popLast() {
          last.softHyphenStart = last.end
          last.baseAdvance = last.advance
          last.end = cluster.end
          last.advance += cluster.advance
          last.endDelta = cluster.endDelta + hyphen
          last.trimDelta = 0
          g.append(last)
        } else {
          var alone = cluster
          alone.endDelta += hyphen
          g.append(alone)
        }
      }
      words[w].firstGrapheme = UInt32(graphemes.count)
      words[w].graphemeCount = UInt32(g.count)
      graphemes += g
    }
  }

  // MARK: Breaking lines

  /// Breaks `text` into lines at `width` px and calls `line` with each
  /// line's byte range, in order; returns the number of lines (at least 1).
  ///
  /// As a browser fills lines of text styled `white-space: pre-wrap;
  /// overflow-wrap: anywhere`:
  /// - a line feed ends a line; a text that ends in one has no empty last line;
  /// - lines are filled greedily, breaking only between pieces (break
  ///   opportunities); spaces where a line breaks hang (take no width);
  /// - a line fits when its advance is at most the width, truncated to the
  ///   browser's layout unit of 1/64 px, plus one such unit; a line ending
  ///   where the word is unsafe to break fits with its end shaped alone, and a
  ///   closing bracket may take half its width to fit;
  /// - a piece wider than an empty line is cut between grapheme clusters
  ///   (at least one cluster per line);
  /// - a tab advances to the next multiple of `tabSize` spaces (the next
  ///   one when less than half a space is left), from the line's start.
  /// - Complexity: O(length of `text`) the first time; then O(pieces), with
  ///   no shaping.
  @discardableResult
  mutating func breakLines(
    _ text: UnsafeBufferPointer<UInt8>, width: Double, tabSize: Int, line: ((Range<Int>) -> Void)? = nil
  ) -> Int {
    guard !text.isEmpty else {
      line?(0..<0)
      return 1
    }
    let range = textTokens(text)
    let available = width.isFinite ? Int64((width * 64).rounded(.down)) : Int64.max / 4096
    let tabStop = max(1, Int64(tabSize)) * spaceAdvance
    var lines: [Range<Int>] = []
    while true {
      lines.removeAll(keepingCapacity: true)
      let result = tokens.withUnsafeBufferPointer { tokens in
        words.withUnsafeBufferPointer { words in
          pieces.withUnsafeBufferPointer { pieces in
            graphemes.withUnsafeBufferPointer { graphemes in
              var filler = LineFiller(
                text: text, tokens: tokens, words: words, pieces: pieces, graphemes: graphemes, available: available,
                space: spaceAdvance, tabStop: tabStop, collects: line != nil, scanner: scanner)
              let result = filler.fill(range)
              lines = filler.lines
              return result
            }
          }
        }
      }
      switch result {
      case .lines(let count):
        if let line { for r in lines { line(r) } }
        return count
      case .needsGraphemes(let w, let wordStart):
        // A word must be cut between grapheme clusters: measure them, then fill again.
        computeGraphemes(w, UnsafeBufferPointer(rebasing: text[wordStart..<(wordStart + Int(words[w].length))]))
      }
    }
  }

  /// The advance of the widest paragraph of `text` laid out on one line
  /// (the spaces at its end left out), in px, as line filling counts it.
  /// - Complexity: as ``breakLines(_:width:tabSize:line:)``.
  mutating func advance(of text: UnsafeBufferPointer<UInt8>, tabSize: Int) -> Double {
    guard !text.isEmpty else { return 0 }
    let range = textTokens(text)
    let tabStop = max(1, Int64(tabSize)) * spaceAdvance
    var best: Int64 = 0
    var x: Int64 = 0
    var pending: Int64 = 0
    var offset = 0
    for t in range {
      let token = tokens[t]
      let word = words[Int(token.word)]
      for k in 0..<Int(word.pieceCount) {
        let p = pieces[Int(word.firstPiece) + k]
        x += pending + p.width
        pending = Int64(p.hang)
        best = max(best, x)
      }
      offset += Int(word.length)
      for j in 0..<Int(token.spaces) {
        let at = x + pending
        pending +=
          text[offset + j] == 0x09 ? LineFiller.tabAdvance(at: at, stop: tabStop, space: spaceAdvance) : spaceAdvance
      }
      offset += Int(token.spaces)
      if token.lineFeed {
        offset += 1
        x = 0
        pending = 0
      }
    }
    return Double(best) / 65536
  }

  /// `text` with each tab replaced by the spaces closest to its advance (at least one).
  mutating func drawnText(_ text: UnsafeBufferPointer<UInt8>, tabSize: Int) -> String {
    let range = textTokens(text)
    let tabStop = max(1, Int64(tabSize)) * spaceAdvance
    var out: [UInt8] = []
    out.reserveCapacity(text.count + 16)
    var x: Int64 = 0
    var offset = 0
    for t in range {
      let token = tokens[t]
      let word = words[Int(token.word)]
      for k in 0..<Int(word.pieceCount) {
        let p = pieces[Int(word.firstPiece) + k]
        x += p.width + Int64(p.hang)
      }
      out.append(contentsOf: text[offset..<(offset + Int(word.length))])
      offset += Int(word.length)
      for j in 0..<Int(token.spaces) {
        if text[offset + j] == 0x09 {
          let d = LineFiller.tabAdvance(at: x, stop: tabStop, space: spaceAdvance)
          let n = max(1, Int((Double(d) / Double(spaceAdvance)).rounded()))
          out.append(contentsOf: repeatElement(0x20, count: n))
          x += d
        } else {
          out.append(0x20)
          x += spaceAdvance
        }
      }
      offset += Int(token.spaces)
      if token.lineFeed {
        out.append(0x0A)
        offset += 1
        x = 0
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  // MARK: Filling

  private struct LineFiller {
    let text: UnsafeBufferPointer<UInt8>
    let tokens: UnsafeBufferPointer<Token>
    let words: UnsafeBufferPointer<Word>
    let pieces: UnsafeBufferPointer<Piece>
    let graphemes: UnsafeBufferPointer<WordShaper.Grapheme>
    /// The width in layout units (1/64 px).
    let available: Int64
    let space: Int64
    let tabStop: Int64
    /// Whether to keep each line's byte range in ``lines``.
    let collects: Bool
    /// Break opportunities of a line that starts inside a word (unretained: the cache owns it).
    unowned(unsafe) let scanner: BreakScanner
    var lines: [Range<Int>] = []

    /// How a fill ended: with the number of lines, or needing the grapheme
    /// clusters of a word that starts at byte `wordStart` to cut it.
    enum Result {
      case lines(Int)
      case needsGraphemes(word: Int, wordStart: Int)
    }

    @inline(__always)
    private mutating func line(_ r: Range<Int>) { if collects { lines.append(r) } }

    /// Whether an advance of `x` (16.16 px) fits: it may pass the width by
    /// at most one layout unit, as in the browser (`aaaa bbbb cccc`, 6401/64
    /// px, fits in 100 px; 6402/64 px would not).
    @inline(__always)
    func fits(_ x: Int64) -> Bool { x <= (available + 1) << 10 }

    static func tabAdvance(at x: Int64, stop: Int64, space: Int64) -> Int64 {
      var d = stop - x % stop
      if d < space / 2 { d += stop }
      return d
    }

    /// A place in the text: token `t`, its word's piece `k`, where the piece
    /// starts (or where a cut piece resumes), and how much of its advance a
    /// cut already used.
    struct Cursor {
      var t: Int
      var k: Int
      var wordStart: Int
      var offset: Int
      var consumed: Int64 = 0
      /// Added to a line that starts here after a cut where the word is
      /// unsafe to break: its start shaped alone.
      var startDelta: Int64 = 0
    }

    mutating func fill(_ range: Range<Int>) -> Result {
      var lines = 0
      var c = Cursor(t: range.lowerBound, k: 0, wordStart: 0, offset: 0)
      var paragraphStart = true
      lines: while c.t < range.upperBound {
        // One line, starting at `c`.
        lines += 1
        let lineStart = c.offset
        var x: Int64 = 0
        if c.consumed == 0 && c.k > 0 && !paragraphStart {
          x = Int64(pieces[Int(words[Int(tokens[c.t].word)].firstPiece) + c.k].startDelta)
        } else if c.consumed != 0 {
          x = c.startDelta
        }
        var cur = c
        var first = true
        // The last place the line may end: after the piece ending at `fitEnd` (its hanging
        // ideographic spaces kept), resuming at `fitNext`.
        var fitEnd = lineStart
        var fitNext = c
        var fitEndsParagraph = false
        if c.offset > c.wordStart, scanner.startsAfresh(words[Int(tokens[c.t].word)].freshBreaks, text, at: c.offset) {
          // Inside a word whose break opportunities depend on what comes before: find them
          // from the line's start, as the browser's line break iterator does.
          let token = tokens[c.t]
          let word = words[Int(token.word)]
          guard word.firstGrapheme != UInt32.max else {
            return .needsGraphemes(word: Int(token.word), wordStart: c.wordStart)
          }
          switch freshLine(c) {
          case .ends(let end, let next):
            line(lineStart..<end)
            c = next
            paragraphStart = false
            continue lines
          case .rest(let width):
            // The rest of the word fits: the line goes on after it.
            cur.k = Int(word.pieceCount) - 1
            fitEnd = c.wordStart + Int(word.length)
            fitNext = next(cur, token, word, true)
            fitEndsParagraph = token.lineFeed || c.t + 1 == range.upperBound
            if fitEndsParagraph {
              line(lineStart..<trimmedEnd(fitEnd, paragraphEnds: true))
              paragraphStart = true
              c = fitNext
              continue lines
            }
            x = width
            step(&cur, token, word, true, &x)
            first = false
          }
        }
        while true {
          let token = tokens[cur.t]
          let word = words[Int(token.word)]
          let p = pieces[Int(word.firstPiece) + cur.k]
          let lastOfWord = cur.k + 1 == Int(word.pieceCount)
          let lastOfParagraph = lastOfWord && (token.lineFeed || cur.t + 1 == range.upperBound)
          let w = p.width - cur.consumed
          // At the paragraph's end nothing is shaped again. A bracket shrinks only where the
          // line may break right after it: not before spaces or a line feed.
          let endDelta = lastOfParagraph ? 0 : Int64(p.endDelta)
          let trim = lastOfWord && (token.spaces > 0 || token.lineFeed) ? 0 : Int64(p.trimDelta)
          var fitsHere = false
          if first {
            first = false
            if !fits(x + w + endDelta) && !(trim < 0 && fits(x + w + endDelta + trim)) {
              // Wider than the line: cut between grapheme clusters.
              guard word.firstGrapheme != UInt32.max else {
                return .needsGraphemes(word: Int(token.word), wordStart: cur.wordStart)
              }
              if let cut = cutPoint(cur, x: x) {
                line(lineStart..<cut.offset)
                c.t = cur.t
                c.k = cur.k
                c.wordStart = cur.wordStart
                c.offset = cut.offset
                c.consumed = cur.consumed + cut.used
                c.startDelta = cut.startDelta
                paragraphStart = false
                continue lines
              }
            }
            fitsHere = true
          } else if fits(x + w) {
            fitsHere = fits(x + w + endDelta)
          } else {
            // The first piece that overflows: a closing bracket at its end may shrink to fit.
            if trim < 0 && fits(x + w + endDelta + trim) {
              fitEnd = cur.wordStart + Int(p.end)
              fitNext = next(cur, token, word, lastOfWord)
              fitEndsParagraph = lastOfParagraph
            }
            break
          }
          if fitsHere {
            fitEnd = cur.wordStart + Int(p.end)
            fitNext = next(cur, token, word, lastOfWord)
            fitEndsParagraph = lastOfParagraph
          }
          if lastOfParagraph { break }
          x += w + Int64(p.hang)
          step(&cur, token, word, lastOfWord, &x)
        }
        line(lineStart..<trimmedEnd(fitEnd, paragraphEnds: fitEndsParagraph))
        paragraphStart = fitEndsParagraph
        c = fitNext
      }
      return .lines(max(lines, 1))
    }

    /// Moves `cur` to the next piece of its paragraph, adding the spaces
    /// after a word to `x`.
    private func step(_ cur: inout Cursor, _ token: Token, _ word: Word, _ lastOfWord: Bool, _ x: inout Int64) {
      if lastOfWord {
        let at = cur.wordStart + Int(word.length)
        if word.length == 0 && (at == 0 || text[at - 1] == 0x0A) {
          x = leadingSpaces(token, at: at, x: x)
        } else {
          x += spaces(token, at: at, x: x)
        }
      }
      cur = next(cur, token, word, lastOfWord)
    }

    /// `x` after the spaces that start a paragraph. The browser lays the
    /// run of U+0020 there out as an item of its own (a break opportunity
    /// follows it), whose width is rounded up to a layout unit apart from
    /// the text after it: `   (as in Rossi et` (698.88 + 5,702.12 units) does
    /// not fit in 6,400 units plus one, though the two add up to 6,401.
    private func leadingSpaces(_ token: Token, at offset: Int, x: Int64) -> Int64 {
      var run = 0
      while run < Int(token.spaces) && text[offset + run] == 0x20 { run += 1 }
      let item = x + Int64(run) * space
      let rounded = (item + 1023) & ~1023
      guard run < Int(token.spaces) else { return rounded }
      var d: Int64 = 0
      for j in run..<Int(token.spaces) {
        d += text[offset + j] == 0x09 ? Self.tabAdvance(at: rounded + d, stop: tabStop, space: space) : space
      }
      return rounded + d
    }

    /// The place after the piece at `cur` (past spaces and a line feed).
    private func next(_ cur: Cursor, _ token: Token, _ word: Word, _ lastOfWord: Bool) -> Cursor {
      if !lastOfWord {
        let end = cur.wordStart + Int(pieces[Int(word.firstPiece) + cur.k].end)
        return Cursor(t: cur.t, k: cur.k + 1, wordStart: cur.wordStart, offset: end)
      }
      let after = cur.wordStart + Int(word.length) + Int(token.spaces) + (token.lineFeed ? 1 : 0)
      return Cursor(t: cur.t + 1, k: 0, wordStart: after, offset: after)
    }

    /// The advance of the spaces after a word that starts a run at `x`.
    private func spaces(_ token: Token, at offset: Int, x: Int64) -> Int64 {
      guard token.hasTab else { return Int64(token.spaces) * space }
      var d: Int64 = 0
      for j in 0..<Int(token.spaces) {
        d += text[offset + j] == 0x09 ? Self.tabAdvance(at: x + d, stop: tabStop, space: space) : space
      }
      return d
    }

    /// A line's end without a carriage return before the line feed.
    private func trimmedEnd(_ end: Int, paragraphEnds: Bool) -> Int {
      paragraphEnds && end > 0 && text[end - 1] == 0x0D ? end - 1 : end
    }

    /// How a line that starts inside a word with fresh break opportunities ends.
    enum FreshLine {
      /// Inside the word, before byte `end`, the next line starting at `next`.
      case ends(Int, Cursor)
      /// The rest of the word fits, taking `x`.
      case rest(Int64)
    }

    /// Fills a line that starts at `c`, inside a word whose break
    /// opportunities are found from the line's start (``BreakScanner``),
    /// measuring the word's grapheme clusters: up to the last opportunity
    /// that fits (a closing bracket there may take half its width), or the
    /// whole rest of the word, or else cut between clusters.
    private func freshLine(_ c: Cursor) -> FreshLine {
      let word = words[Int(tokens[c.t].word)]
      let from = UInt32(c.offset - c.wordStart)
      let breaks = scanner.breaks(
        of: UnsafeBufferPointer(rebasing: text[c.wordStart..<(c.wordStart + Int(word.length))]),
        word: Int(tokens[c.t].word), from: Int(from))
      let all = Int(word.firstGrapheme)..<Int(word.firstGrapheme + word.graphemeCount)
      var x: Int64 = 0
      var started = false
      var b = 0
      var fit: (end: UInt32, next: Int)? = nil
      for g in all {
        let grapheme = graphemes[g]
        if grapheme.end <= from { continue }
        let resumed = grapheme.softHyphenStart != 0 && grapheme.softHyphenStart == from
        if !started {
          started = true
          if !resumed { x = Int64(grapheme.startDelta) }
        }
        x += Int64(resumed ? grapheme.advance - grapheme.baseAdvance : grapheme.advance)
        if grapheme.end >= word.length {
          if fits(x) { return .rest(x) }
          break
        }
        while b < breaks.count && breaks[b] < grapheme.end { b += 1 }
        guard b < breaks.count && breaks[b] == grapheme.end else { continue }
        let end = x + Int64(grapheme.endDelta)
        if fits(end) {
          fit = (grapheme.end, g + 1)
          continue
        }
        if grapheme.trimDelta < 0 && fits(end + Int64(grapheme.trimDelta)) { fit = (grapheme.end, g + 1) }
        break
      }
      if let fit { return .ends(c.wordStart + Int(fit.end), cursor(c, at: fit.end)) }
      // No opportunity fits: cut between grapheme clusters (at least one).
      let first = graphemes[all].firstIndex { $0.end > from } ?? all.lowerBound
      let startX = graphemes[first].softHyphenStart == from && from != 0 ? 0 : Int64(graphemes[first].startDelta)
      guard let cut = cut(word, at: c.offset, wordStart: c.wordStart, before: word.length, x: startX) else {
        // Cut cluster by cluster, the rest of the word fits after all.
        var rest = startX
        for g in graphemes[all] where g.end > from {
          rest += Int64(g.softHyphenStart == from ? g.advance - g.baseAdvance : g.advance)
        }
        return .rest(rest)
      }
      return .ends(cut.offset, cursor(c, at: UInt32(cut.offset - c.wordStart)))
    }

    /// The place at byte `end` of the word of `c` (a grapheme cluster boundary,
    /// or a soft hyphen left to the next line): its piece, the advance of the
    /// piece before it, and what a line starting there adds.
    private func cursor(_ c: Cursor, at end: UInt32) -> Cursor {
      let word = words[Int(tokens[c.t].word)]
      var k = 0
      var pieceStart: UInt32 = 0
      while k + 1 < Int(word.pieceCount) && pieces[Int(word.firstPiece) + k].end <= end {
        pieceStart = pieces[Int(word.firstPiece) + k].end
        k += 1
      }
      var next = Cursor(t: c.t, k: k, wordStart: c.wordStart, offset: c.wordStart + Int(end))
      guard end > pieceStart else { return next }
      for g in Int(word.firstGrapheme)..<Int(word.firstGrapheme + word.graphemeCount) {
        let grapheme = graphemes[g]
        if grapheme.end <= pieceStart { continue }
        if grapheme.end > end {
          if grapheme.softHyphenStart == end {
            next.consumed += Int64(grapheme.baseAdvance)
          } else {
            next.startDelta = Int64(grapheme.startDelta)
          }
          break
        }
        next.consumed += Int64(grapheme.advance)
      }
      // A piece resumed after no advance at all still counts as resumed.
      if next.consumed == 0 { next.consumed = 1 }
      return next
    }

    /// Where to cut the piece at `cur` so the most grapheme clusters fit
    /// after `x` (at least one): the byte offset, the advance used, and what
    /// the next line's start adds (``Cursor/startDelta``); `nil` when the
    /// whole rest of the piece fits.
    ///
    /// A cluster fits with its end shaped alone; a closing bracket that does
    /// not fit may take half its width to fit. A soft hyphen goes with the
    /// cluster before it (the line shows a hyphen), unless that cluster is
    /// alone on the line and does not fit with it: then the soft hyphen
    /// starts the next line, as in the browser.
    private func cutPoint(_ cur: Cursor, x: Int64) -> (offset: Int, used: Int64, startDelta: Int64)? {
      let word = words[Int(tokens[cur.t].word)]
      return cut(
        word, at: cur.offset, wordStart: cur.wordStart, before: pieces[Int(word.firstPiece) + cur.k].contentEnd, x: x)
    }

    /// ``cutPoint(_:x:)`` for the text of `word` from byte `offset` to byte
    /// `pieceEnd` of the word (relative to the word's start, `wordStart`).
    private func cut(_ word: Word, at offset: Int, wordStart: Int, before pieceEnd: UInt32, x: Int64) -> (
      offset: Int, used: Int64, startDelta: Int64
    )? {
      let cur = (wordStart: wordStart, offset: offset)
      let all = Int(word.firstGrapheme)..<Int(word.firstGrapheme + word.graphemeCount)
      let from = UInt32(cur.offset - cur.wordStart)
      var used: Int64 = 0
      var cut: UInt32? = nil
      var next = all.upperBound
      for g in all {
        let grapheme = graphemes[g]
        if grapheme.end <= from { continue }
        next = g
        if grapheme.end > pieceEnd { break }
        next = g + 1
        // Resuming at a soft hyphen that an earlier line left: only its part remains.
        let resumed = grapheme.softHyphenStart != 0 && grapheme.softHyphenStart == from
        let advance = Int64(resumed ? grapheme.advance - grapheme.baseAdvance : grapheme.advance)
        let end = x + used + advance + Int64(grapheme.endDelta)
        if !fits(end) {
          if cut != nil {
            if grapheme.trimDelta < 0 && fits(end + Int64(grapheme.trimDelta)) {
              used += advance
              cut = grapheme.end
            } else {
              next = g
            }
            break
          }
          if grapheme.softHyphenStart > from {
            used += Int64(grapheme.baseAdvance)
            cut = grapheme.softHyphenStart
            next = g
            break
          }
        }
        used += advance
        cut = grapheme.end
      }
      guard let cut, cut < pieceEnd else { return nil }
      // The next line starts with cluster `next`, or inside it at its soft hyphen.
      let resumesAlone = next == all.upperBound || graphemes[next].softHyphenStart == cut
      return (cur.wordStart + Int(cut), used, resumesAlone ? 0 : Int64(graphemes[next].startDelta))
    }
  }
}
