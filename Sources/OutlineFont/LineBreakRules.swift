import CICUShim

/// Where a browser may break a line inside a run of text that holds no
/// breakable space (UAX #14 as Chromium tailors it for `line-break: auto`).
///
/// - After a run of breakable spaces (U+0020, U+0009) a break is always
///   allowed, whatever follows (callers split words there).
/// - Between two ASCII characters, the browsers' compatible table decides:
///   a break before an opening bracket `(` `<` `[` `{` after closing
///   punctuation and symbols; after `-` (not before a digit unless the `-`
///   follows a letter or digit, so `-1` stays whole but `ABC-123` may break,
///   and not before `! $ ) , . / : ; ? ] }`); after `?` (not before
///   `! " ' ) , . / : ; ? ] }`); nowhere else — so never after `/` between
///   letters, as UAX #14 would allow.
/// - Never next to a control character, nor between U+00A0 and ASCII.
/// - Elsewhere (one side outside ASCII), where ICU's UAX #14 iterator with
///   the locale tailoring `lb=normal` breaks (CSS `line-break: auto`: small
///   kana and `ー` may start a line), and also where Unicode 15.1's quotation
///   mark rules (LB19, LB19a) allow what the older ICU on the system does
///   not: before an opening quotation mark (Pi) and after a closing one (Pf)
///   when East Asian characters (East_Asian_Width F, W, H) stand on both
///   sides (`中作为“工具”菜单` breaks before `“` and after `”`).
enum LineBreakRules {
  /// The locale of ICU's line break iterator.
  static let locale = "en@lb=normal"

  private static let afterClosing = AsciiSet("!\"#%&)*+,.:;=>\\]|}~")
  private static let openers = AsciiSet("(<[{")
  private static let notAfterHyphen = AsciiSet("!$),./:;?]}")
  private static let notAfterQuestion = AsciiSet("!\"'),./:;?]}\u{7F}")

  /// A set of ASCII characters as a 128-bit mask.
  private struct AsciiSet {
    let low: UInt64
    let high: UInt64
    init(_ chars: String) {
      var l: UInt64 = 0
      var h: UInt64 = 0
      for b in chars.utf8 { if b < 64 { l |= 1 << UInt64(b) } else { h |= 1 << UInt64(b - 64) } }
      low = l
      high = h
    }
    @inline(__always) func contains(_ b: UInt8) -> Bool {
      b < 64 ? low & (1 << UInt64(b)) != 0 : b < 128 && high & (1 << UInt64(b - 64)) != 0
    }
  }

  /// Whether a break is allowed between the printable ASCII characters
  /// `last` and `current` ('!' … DEL), when `last` is not a `-` before a digit.
  static func asciiAllows(_ last: UInt8, _ current: UInt8) -> Bool {
    switch last {
    case UInt8(ascii: "-"): !notAfterHyphen.contains(current)
    case UInt8(ascii: "?"): !notAfterQuestion.contains(current)
    default: afterClosing.contains(last) && openers.contains(current)
    }
  }

  /// Marks `breaks[i]` (1 ≤ i < n) where a line may break before unit `i`
  /// of the UTF-16 text `text` (n units, no breakable space inside).
  ///
  /// - Parameters:
  ///   - lineIterator: ICU's line iterator, used only when the text is not all ASCII.
  /// - Complexity: O(n).
  static func markBreaks(
    _ text: UnsafeBufferPointer<UInt16>, ascii: Bool, lineIterator: OpaquePointer?, into breaks: inout [Bool]
  ) {
    let n = text.count
    for i in 0...n { breaks[i] = false }
    guard n > 1 else { return }
    var icu: [Bool]? = nil
    if !ascii, let lineIterator {
      var marks = [Bool](repeating: false, count: n + 1)
      if outline_icu_set_text(lineIterator, text.baseAddress, Int32(n)) {
        var b = outline_icu_first(lineIterator)
        while b >= 0 {
          marks[Int(b)] = true
          b = outline_icu_next(lineIterator)
        }
      }
      icu = marks
    }
    for i in 1..<n {
      let last = text[i - 1]
      let current = text[i]
      if last < 0x21 || current < 0x21 { continue }
      if last == 0x2D && (0x30...0x39).contains(current) {
        if i >= 2 {
          let l2 = text[i - 2]
          breaks[i] = l2 < 0x80 && (isASCIIDigit(l2) || isASCIILetter(l2))
        }
        continue
      }
      if last <= 0x7F && current <= 0x7F {
        breaks[i] = asciiAllows(UInt8(last), UInt8(current))
        continue
      }
      if (current == 0xA0 && last <= 0x7F) || (last == 0xA0 && current <= 0x7F) { continue }
      breaks[i] = icu?[i] ?? false
      if !breaks[i] && !UTF16.isTrailSurrogate(current) { breaks[i] = quotationBreak(text, i) }
    }
  }

  /// Whether Unicode 15.1's LB19 and LB19a allow a break before unit `i`
  /// between East Asian characters and a quotation mark (Line_Break QU):
  /// before one that opens (Pi) after an East Asian character and before
  /// one, or after one that closes (Pf) between two East Asian characters;
  /// the rules that come first in UAX #14 still hold (no break after an
  /// opening punctuation or a glue, before a closing one, a nonstarter…).
  private static func quotationBreak(_ text: UnsafeBufferPointer<UInt16>, _ i: Int) -> Bool {
    let (current, currentLength) = scalar(text, at: i)
    guard let (last, lastStart) = scalar(text, before: i) else { return false }
    let quote = Int32(OUTLINE_ICU_LB_QUOTATION)
    let lastClass = outline_icu_line_break(Int32(bitPattern: last))
    let currentClass = outline_icu_line_break(Int32(bitPattern: current))
    if currentClass == quote && category(current) == .initialPunctuation {
      guard outline_icu_east_asian(Int32(bitPattern: last)), i + currentLength < text.count,
        !noBreakAfter.contains(lastClass)
      else { return false }
      let (next, _) = scalar(text, at: i + currentLength)
      return outline_icu_east_asian(Int32(bitPattern: next))
    }
    if lastClass == quote && category(last) == .finalPunctuation {
      guard outline_icu_east_asian(Int32(bitPattern: current)), !noBreakBefore.contains(currentClass),
        let (beforeLast, _) = scalar(text, before: lastStart)
      else { return false }
      return outline_icu_east_asian(Int32(bitPattern: beforeLast))
    }
    return false
  }

  /// Line_Break classes after which UAX #14 rules before LB19 forbid a break.
  private static let noBreakAfter: Set<Int32> = [
    OUTLINE_ICU_LB_OPEN_PUNCTUATION, OUTLINE_ICU_LB_GLUE, OUTLINE_ICU_LB_WORD_JOINER, OUTLINE_ICU_LB_ZWJ,
    OUTLINE_ICU_LB_QUOTATION,
  ].map { Int32($0) }.reduce(into: []) { $0.insert($1) }
  /// Line_Break classes before which UAX #14 forbids a break.
  private static let noBreakBefore: Set<Int32> = [
    OUTLINE_ICU_LB_CLOSE_PUNCTUATION, OUTLINE_ICU_LB_CLOSE_PARENTHESIS, OUTLINE_ICU_LB_EXCLAMATION,
    OUTLINE_ICU_LB_INFIX_NUMERIC, OUTLINE_ICU_LB_BREAK_SYMBOLS, OUTLINE_ICU_LB_NONSTARTER,
    OUTLINE_ICU_LB_BREAK_AFTER, OUTLINE_ICU_LB_HYPHEN, OUTLINE_ICU_LB_INSEPARABLE, OUTLINE_ICU_LB_COMBINING_MARK,
    OUTLINE_ICU_LB_ZWJ, OUTLINE_ICU_LB_GLUE, OUTLINE_ICU_LB_WORD_JOINER, OUTLINE_ICU_LB_QUOTATION,
    OUTLINE_ICU_LB_ZWSPACE,
  ].map { Int32($0) }.reduce(into: []) { $0.insert($1) }

  private static func category(_ c: UInt32) -> Unicode.GeneralCategory? {
    Unicode.Scalar(c)?.properties.generalCategory
  }

  /// The scalar starting at unit `i`, and its length in units.
  private static func scalar(_ text: UnsafeBufferPointer<UInt16>, at i: Int) -> (UInt32, Int) {
    let u = text[i]
    if UTF16.isLeadSurrogate(u) && i + 1 < text.count && UTF16.isTrailSurrogate(text[i + 1]) {
      return (0x10000 + ((UInt32(u) - 0xD800) << 10) + (UInt32(text[i + 1]) - 0xDC00), 2)
    }
    return (UInt32(u), 1)
  }

  /// The scalar ending at unit `i`, and where it starts.
  private static func scalar(_ text: UnsafeBufferPointer<UInt16>, before i: Int) -> (UInt32, Int)? {
    guard i > 0 else { return nil }
    if i >= 2 && UTF16.isTrailSurrogate(text[i - 1]) && UTF16.isLeadSurrogate(text[i - 2]) {
      return (scalar(text, at: i - 2).0, i - 2)
    }
    return (UInt32(text[i - 1]), i - 1)
  }

  private static func isASCIIDigit(_ c: UInt16) -> Bool { (0x30...0x39).contains(c) }
  private static func isASCIILetter(_ c: UInt16) -> Bool { (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) }
}
