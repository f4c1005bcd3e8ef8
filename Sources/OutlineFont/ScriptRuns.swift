import CICUShim

/// The script each character of a paragraph is shaped in: the paragraph cut
/// into runs as Chromium's script run iterator cuts it (UAX #24 Script and
/// Script_Extensions):
/// - each character may belong to a list of scripts, its own first: its
///   Script_Extensions, with Hiragana standing for Katakana too (both are
///   OpenType's `kana`); a Common character with extensions (`、` `ー`)
///   prefers the extension with the lowest code, Latin last;
/// - a run keeps the scripts all its characters may belong to; a character
///   that shares none with it starts a new run; a Common or Inherited
///   character with no extensions (spaces, ASCII punctuation, digits, marks)
///   joins any run, across spaces, and those before the first run join it;
/// - a closing bracket takes the script of the run its opening bracket
///   ended up in (UAX #9 paired brackets), unless both are Han-based;
/// - a run is shaped in the first script left in it.
///
/// It matters at the edge of a word: in `である 'cabal'` the quote belongs to
/// the Japanese run, so it is not kerned with the `c`; `うフ` is one run.
enum ScriptRuns {
  /// ICU's codes (UScriptCode) for the scripts the rules name.
  static let common: Int32 = 0
  static let inherited: Int32 = 1
  static let latin: Int32 = outline_icu_script(0x61)
  static let hiragana: Int32 = outline_icu_script(0x3042)
  static let katakana: Int32 = outline_icu_script(0x30A2)
  static let han: Int32 = outline_icu_script(0x4E00)
  static let bopomofo: Int32 = outline_icu_script(0x3105)
  /// The scripts of U+300C 「, which an East Asian opening bracket of script Common takes.
  static let hanScripts: [Int32] = scriptExtensions(0x300C)

  /// Resolves the script of every scalar of the UTF-8 paragraph `text`:
  /// `scripts[i]` for the scalar that starts at byte `starts[i]`.
  /// - Complexity: O(length of `text`).
  static func resolve(_ text: UnsafeBufferPointer<UInt8>, scripts: inout [Int32], starts: inout [Int]) {
    scripts.removeAll(keepingCapacity: true)
    starts.removeAll(keepingCapacity: true)
    var runOf: [Int32] = []
    var runScripts: [Int32] = []
    var current: [Int32] = [common]
    var commonPreferred = common
    // Open brackets: the character, the script of its run once resolved (Common until then).
    var brackets: [(ch: UInt32, script: Int32)] = []
    var fixupDepth = 0
    func resolved() -> Int32 { current[0] == common ? commonPreferred : current[0] }
    func fixup(_ script: Int32, excludeLast: Bool) {
      var count = min(fixupDepth, brackets.count)
      var k = brackets.count - 1
      if excludeLast && count > 0 {
        k -= 1
        count -= 1
        fixupDepth = 1
      } else {
        fixupDepth = 0
      }
      while count > 0 {
        brackets[k].script = script
        k -= 1
        count -= 1
      }
    }
    var it = text.makeIterator()
    var decoder = UTF8()
    var offset = 0
    loop: while true {
      let c: UInt32
      switch decoder.decode(&it) {
      case .scalarValue(let s):
        c = s.value
        starts.append(offset)
        offset += UTF8.width(s)
      case .emptyInput: break loop
      case .error:
        c = 0xFFFD
        starts.append(offset)
        offset += 1
      }
      var next = Self.scripts(of: c)
      switch bracketType(c) {
      case 1:
        if next == [common] && outline_icu_east_asian(Int32(bitPattern: c)) { next = hanScripts }
        brackets.append((c, common))
        fixupDepth += 1
      case 2:
        let target = pairedBracket(c)
        if let k = brackets.lastIndex(where: { $0.ch == target }) {
          var script = brackets[k].script
          if isHan(script), let h = current.first(where: isHan) { script = h }
          if script != common { next = [script] }
          // The brackets opened after the match are dropped; the match stays, as in the browser.
          let dropped = brackets.count - 1 - k
          brackets.removeLast(dropped)
          fixupDepth = max(0, fixupDepth - dropped)
        }
      default: break
      }
      if runScripts.isEmpty { runScripts.append(common) }
      if !merge(&current, next, &commonPreferred) {
        let script = resolved()
        runScripts[runScripts.count - 1] = script
        fixup(script, excludeLast: bracketType(c) == 1)
        current = next
        runScripts.append(common)
      }
      runOf.append(Int32(runScripts.count - 1))
    }
    if !runScripts.isEmpty { runScripts[runScripts.count - 1] = resolved() }
    for r in runOf { scripts.append(runScripts[Int(r)]) }
  }

  /// Appends a run that starts at UTF-16 offset `offset` in script `script`
  /// to `encoded`: the offset as a base-128 varint, then the script's code.
  static func appendRun(_ offset: Int, _ script: Int32, to encoded: inout [UInt8]) {
    var o = offset
    while o >= 0x80 {
      encoded.append(UInt8(o & 0x7F) | 0x80)
      o >>= 7
    }
    encoded.append(UInt8(o))
    encoded.append(UInt8(clamping: script))
  }

  /// The script code of a record that is no run but the fallback hint of
  /// the run before it (``appendFallbackHint(_:to:)``).
  static let fallbackHint: Int32 = 0xFF

  /// Appends to `encoded` that the run appended last takes its first system
  /// fallback font for the character `scalar` (the first character of its
  /// script run in the paragraph that no requested family has), as the
  /// browser picks a fallback font once for a whole script run.
  static func appendFallbackHint(_ scalar: UInt32, to encoded: inout [UInt8]) {
    appendRun(Int(scalar), fallbackHint, to: &encoded)
  }

  /// Calls `body` with each run `encoded` holds (``appendRun(_:_:to:)``), in
  /// order; a fallback hint comes as a run of script ``fallbackHint`` whose
  /// offset is the character.
  static func forEachRun(_ encoded: UnsafeBufferPointer<UInt8>, _ body: (_ offset: Int, _ script: Int32) -> Void) {
    var i = 0
    while i < encoded.count {
      var offset = 0
      var shift = 0
      while i < encoded.count {
        let b = encoded[i]
        i += 1
        offset |= Int(b & 0x7F) << shift
        shift += 7
        if b < 0x80 { break }
      }
      guard i < encoded.count else { return }
      body(offset, Int32(encoded[i]))
      i += 1
    }
  }

  /// Whether `c` has a script of its own: not Common, Inherited or Unknown.
  static func hasDefiniteScript(_ c: UInt32) -> Bool {
    if c < 0x80 { return (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) }
    let s = outline_icu_script(Int32(bitPattern: c))
    return s > inherited && s != unknown
  }

  /// ICU's code for Unknown (Zzzz).
  static let unknown: Int32 = 103

  private static func isHan(_ s: Int32) -> Bool { s == han || s == hiragana || s == bopomofo }

  /// Narrows `current` to the scripts it shares with `next`; false (and
  /// `current` unchanged) when they share none, which ends the run.
  private static func merge(_ current: inout [Int32], _ next: [Int32], _ commonPreferred: inout Int32) -> Bool {
    let priority = current[0]
    if next[0] <= inherited {
      if next.count == 2 && priority <= inherited && commonPreferred == common { commonPreferred = next[1] }
      return true
    }
    if priority <= inherited {
      current = next
      return true
    }
    if current.count == 1 { return next.contains(priority) }
    var kept: [Int32] = []
    var rest = next[...]
    if next.contains(priority) {
      kept.append(priority)
    } else if current.dropFirst().contains(next[0]) {
      kept.append(next[0])
      rest = next.dropFirst()
    } else {
      rest = next.dropFirst()
    }
    for s in current.dropFirst() where rest.contains(s) && !kept.contains(s) { kept.append(s) }
    guard !kept.isEmpty else { return false }
    current = kept
    return true
  }

  /// The scripts `c` may belong to, the preferred first (see the type's rules).
  static func scripts(of c: UInt32) -> [Int32] {
    if c < 0x80 {
      return (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) ? [latin] : [common]
    }
    var list = scriptExtensions(c)
    var primary = outline_icu_script(Int32(bitPattern: c))
    if primary == katakana { primary = hiragana }
    if list.isEmpty { return [primary] }
    if primary == list[0] { return list }
    if primary != inherited && primary != common {
      if let k = list.firstIndex(of: primary) {
        list.swapAt(0, k)
      } else {
        list.append(primary)
        list.swapAt(0, list.count - 1)
      }
      return list
    }
    if primary == common {
      if list.count == 1 { return [common, list[0]] }
      for i in 1..<list.count where list[0] == latin || list[i] < list[0] { list.swapAt(0, i) }
      return list
    }
    // Inherited with extensions: Inherited first, then the preferred extension.
    list.append(list[0])
    list[0] = primary
    for i in 2..<list.count where list[1] == latin || list[i] < list[1] { list.swapAt(1, i) }
    return list
  }

  private static func scriptExtensions(_ c: UInt32) -> [Int32] {
    var buffer = [Int32](repeating: 0, count: 32)
    let n = buffer.withUnsafeMutableBufferPointer {
      outline_icu_script_extensions(Int32(bitPattern: c), $0.baseAddress, 32)
    }
    return n > 0 ? Array(buffer[0..<Int(n)]) : []
  }

  private static func bracketType(_ c: UInt32) -> Int32 {
    switch c {
    case 0x28, 0x5B, 0x7B: 1
    case 0x29, 0x5D, 0x7D: 2
    case ..<0x80: 0
    default: outline_icu_bracket_type(Int32(bitPattern: c))
    }
  }

  private static func pairedBracket(_ c: UInt32) -> UInt32 {
    switch c {
    case 0x29: 0x28
    case 0x5D: 0x5B
    case 0x7D: 0x7B
    case 0x28: 0x29
    case 0x5B: 0x5D
    case 0x7B: 0x7D
    default: UInt32(bitPattern: outline_icu_paired_bracket(Int32(bitPattern: c)))
    }
  }
}
