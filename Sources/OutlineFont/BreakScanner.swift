import CICUShim

/// The break opportunities of a line that starts inside a word, found from
/// the line's start.
///
/// The browser's line break iterator is given the text from the start of
/// the line it fills: nothing before it is seen. Inside most words that
/// changes nothing, and the engine keeps the opportunities it found once
/// for the whole word (``LineBreakRules``). Two kinds of words differ:
/// - a `-` before a digit breaks only after a letter or digit, so at a
///   line's start `-512` has no break after its `-` (`AVX-512,` at 26 px
///   is `AVX` / `-51` / `2,`, not `AVX` / `-` / `512` / `,`);
/// - text of the scripts UAX #14 breaks by dictionary (Line_Break SA: Thai,
///   Lao, Khmer, Myanmar…), whose words are found again from the line's
///   start (`…กรุงเท` cut, then `พ` alone on the next line, then `มหานคร`).
///
/// Not thread-safe: used under the ``FontEngine``'s lock.
final class BreakScanner {
  private let lineIterator = outline_icu_line_iterator(LineBreakRules.locale)
  private var cache: [UInt64: [UInt32]] = [:]
  private var u16: [UInt16] = []
  private var u8at: [UInt32] = []
  private var marks: [Bool] = []

  deinit {
    if let lineIterator { outline_icu_close(lineIterator) }
  }

  /// What a word's break opportunities depend on before a line's start.
  enum Context: UInt8 {
    /// Nothing: the opportunities found for the whole word hold.
    case none
    /// A `-` before a digit, when the line starts at it.
    case hyphen
    /// Everything: the word holds text broken by dictionary.
    case dictionary
  }

  /// What a line that starts inside the UTF-8 word `word` depends on: the
  /// word has a character of Line_Break class SA, or a `-` before an ASCII
  /// digit after its first byte.
  /// - Complexity: O(length of `word`).
  static func context(of word: UnsafeBufferPointer<UInt8>) -> Context {
    var context = Context.none
    var i = 0
    while i < word.count {
      let b = word[i]
      if b < 0x80 {
        if b == 0x2D && i > 0 && i + 1 < word.count && (0x30...0x39).contains(word[i + 1]) { context = .hyphen }
        i += 1
        continue
      }
      // Lead bytes of U+0E00–U+0EFF, U+1000–U+109F, U+1780–U+1AAF and U+A9E0–U+AADF
      // hold every SA character of the BMP; ask ICU only there.
      if b == 0xE0 || b == 0xE1 || b == 0xEA || b == 0xF0 {
        var decoder = UTF8()
        var it = word[i...].makeIterator()
        if case .scalarValue(let s) = decoder.decode(&it),
          outline_icu_line_break(Int32(bitPattern: s.value)) == Int32(OUTLINE_ICU_LB_COMPLEX_CONTEXT)
        {
          return .dictionary
        }
      }
      i += 1
      while i < word.count && word[i] & 0xC0 == 0x80 { i += 1 }
    }
    return context
  }

  /// Whether a line that starts at byte `offset` of `text`, inside a word of
  /// context `context`, finds the word's opportunities afresh.
  @inline(__always)
  func startsAfresh(_ context: Context, _ text: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
    switch context {
    case .none: false
    case .dictionary: true
    case .hyphen: text[offset] == 0x2D && offset + 1 < text.count && (0x30...0x39).contains(text[offset + 1])
    }
  }

  /// The break opportunities of `word` (the word numbered `index` in the
  /// caches) after byte `from`, for a line that starts there: byte offsets
  /// from the word's start, ascending, each > `from` and < the word's length.
  /// - Complexity: O(length of `word` − `from`) the first time; cached.
  func breaks(of word: UnsafeBufferPointer<UInt8>, word index: Int, from: Int) -> [UInt32] {
    let key = UInt64(index) << 32 | UInt64(from)
    if let b = cache[key] { return b }
    if cache.count > 1 << 16 { cache.removeAll(keepingCapacity: true) }
    u16.removeAll(keepingCapacity: true)
    u8at.removeAll(keepingCapacity: true)
    var ascii = true
    var decoder = UTF8()
    var it = word[from...].makeIterator()
    var offset = UInt32(from)
    loop: while true {
      switch decoder.decode(&it) {
      case .scalarValue(let s):
        if s.value >= 0x80 { ascii = false }
        for unit in UTF16.encode(s)! {
          u16.append(unit)
          u8at.append(offset)
        }
        offset += UInt32(UTF8.width(s))
      case .emptyInput: break loop
      case .error:
        ascii = false
        u16.append(0xFFFD)
        u8at.append(offset)
        offset += 1
      }
    }
    let n = u16.count
    u8at.append(UInt32(word.count))
    if marks.count < n + 1 { marks = [Bool](repeating: false, count: n + 1) }
    u16.withUnsafeBufferPointer { t in
      LineBreakRules.markBreaks(t, ascii: ascii, lineIterator: lineIterator, into: &marks)
    }
    var out: [UInt32] = []
    if n > 1 { for i in 1..<n where marks[i] { out.append(u8at[i]) } }
    cache[key] = out
    return out
  }

  /// Forgets the opportunities found.
  func removeAll() { cache.removeAll() }
}
