/// One parsed JSON text (RFC 8259), immutable and `Sendable`: simdjson's tape and string
/// buffer, copied out of the parser into storage of its own, so the parser can read the
/// next message while this one waits for the worker. Read it through ``root``, a
/// ``JSONElement``.
///
/// The tape (simdjson's doc/tape.md) is one 64-bit word per scalar or bracket, two for a
/// number, in document order: the top byte is a type letter (`r` root, `n`, `t`, `f`,
/// `l` Int64, `d` Double, `"` string, `[` `]` array, `{` `}` object) and the low 56 bits
/// a payload. An opening bracket holds the index just past its closing one (bits 0–31)
/// and the number of elements or members (bits 32–55, saturating at 2^24 − 1); a string
/// holds the offset in the string buffer of its 32-bit little-endian byte length, followed
/// by its unescaped UTF-8 bytes and a NUL. Numbers are only `l` or `d`: an integral number
/// within `Int64` is `l` (`7.0` too), anything else `d`, as in ``JSONValue``.
///
/// Memory: 8 bytes per scalar, bracket or string and 16 per number, plus the strings'
/// bytes and 5 bytes each.
public struct JSONDocument: Sendable {
  let storage: Storage

  /// The value of the text.
  ///
  /// - Complexity: O(1).
  public var root: JSONElement { JSONElement(document: self, index: 1) }

  /// The number of tape words.
  var tapeCount: Int { storage.tapeCount }

  /// A document holding `tapeCount` words and `stringCount` bytes of strings, written by
  /// `initialize` (the tape at the start of the buffer, the strings just after it).
  init(
    tapeCount: Int, stringCount: Int,
    initialize: (UnsafeMutablePointer<UInt64>, UnsafeMutablePointer<UInt8>) -> Void
  ) {
    storage = Storage(tapeCount: tapeCount, stringCount: stringCount)
    initialize(storage.words, storage.strings)
  }

  // MARK: Tape words

  /// Type letters of the tape (simdjson's doc/tape.md).
  enum Tape {
    static let root = UInt8(ascii: "r")
    static let null = UInt8(ascii: "n")
    static let `true` = UInt8(ascii: "t")
    static let `false` = UInt8(ascii: "f")
    static let int = UInt8(ascii: "l")
    static let double = UInt8(ascii: "d")
    static let string = UInt8(ascii: "\"")
    static let arrayStart = UInt8(ascii: "[")
    static let arrayEnd = UInt8(ascii: "]")
    static let objectStart = UInt8(ascii: "{")
    static let objectEnd = UInt8(ascii: "}")
    static let payloadMask: UInt64 = (1 << 56) - 1
    /// The element count of an opening bracket saturates at this value.
    static let countLimit = 0xFF_FFFF

    static func word(_ type: UInt8, _ payload: UInt64 = 0) -> UInt64 {
      UInt64(type) << 56 | payload
    }
  }

  /// The word at `index`.
  @inline(__always)
  func word(_ index: Int) -> UInt64 {
    storage.words[index]
  }

  /// The type letter of the word at `index`.
  @inline(__always)
  func type(_ index: Int) -> UInt8 {
    UInt8(truncatingIfNeeded: word(index) >> 56)
  }

  /// The 64-bit value after the word at `index` (a number's).
  @inline(__always)
  func value(after index: Int) -> UInt64 {
    word(index + 1)
  }

  /// The index of the value after the one at `index` (its next sibling, or the closing
  /// bracket of its parent).
  @inline(__always)
  func skip(_ index: Int) -> Int {
    let w = word(index)
    switch UInt8(truncatingIfNeeded: w >> 56) {
    case Tape.arrayStart, Tape.objectStart: return Int(truncatingIfNeeded: w & 0xFFFF_FFFF)
    case Tape.int, Tape.double: return index + 2
    default: return index + 1
    }
  }

  /// The element count stored in the opening bracket at `index`, saturated at
  /// `Tape.countLimit`.
  @inline(__always)
  func storedCount(_ index: Int) -> Int {
    Int(truncatingIfNeeded: (word(index) >> 32) & 0xFF_FFFF)
  }

  /// Calls `body` with the UTF-8 bytes of the string at `index` (no copy).
  @inline(__always)
  func withStringBytes<R, E: Error>(
    at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R
  ) throws(E) -> R {
    let offset = Int(truncatingIfNeeded: word(index) & Tape.payloadMask)
    return try withExtendedLifetime(storage) { () throws(E) -> R in
      let base = UnsafeRawPointer(storage.strings + offset)
      let length = Int(UInt32(littleEndian: base.loadUnaligned(as: UInt32.self)))
      return try body(UnsafeBufferPointer(start: storage.strings + offset + 4, count: length))
    }
  }

  /// The tape and the string buffer, in one allocation; written once, by the
  /// initializer, before the document is shared, and only read afterwards.
  final class Storage: @unchecked Sendable {
    let words: UnsafeMutablePointer<UInt64>
    let strings: UnsafeMutablePointer<UInt8>
    let tapeCount: Int
    let stringCount: Int

    init(tapeCount: Int, stringCount: Int) {
      let count = tapeCount + (stringCount + 7) / 8
      words = .allocate(capacity: count)
      strings = UnsafeMutableRawPointer(words + tapeCount).bindMemory(to: UInt8.self, capacity: stringCount)
      self.tapeCount = tapeCount
      self.stringCount = stringCount
    }

    deinit {
      words.deallocate()
    }
  }
}

// MARK: - Building from a JSONValue

extension JSONDocument {
  /// The document of `value`, as parsing its JSON text would give (object members in the
  /// dictionary's order): for tests and for callers holding a ``JSONValue``.
  ///
  /// A ``JSONValue/double(_:)`` that is integral and strictly within `Int64`'s range
  /// becomes an integer, as it would on the wire.
  ///
  /// - Complexity: O(n) in the size of `value`.
  public init(_ value: JSONValue) {
    var tape: [UInt64] = [0]
    var strings: [UInt8] = []
    Self.append(value, to: &tape, strings: &strings)
    tape[0] = Tape.word(Tape.root, UInt64(tape.count))
    tape.append(Tape.word(Tape.root))
    self.init(tapeCount: tape.count, stringCount: strings.count) { words, bytes in
      tape.withUnsafeBufferPointer { words.initialize(from: $0.baseAddress!, count: $0.count) }
      strings.withUnsafeBufferPointer { if let base = $0.baseAddress { bytes.initialize(from: base, count: $0.count) } }
    }
  }

  private static func append(_ value: JSONValue, to tape: inout [UInt64], strings: inout [UInt8]) {
    switch value {
    case .null: tape.append(Tape.word(Tape.null))
    case .bool(let b): tape.append(Tape.word(b ? Tape.true : Tape.false))
    case .int(let i):
      tape.append(Tape.word(Tape.int))
      tape.append(UInt64(bitPattern: i))
    case .double(let d):
      if d > -0x1p63, d < 0x1p63, d == d.rounded(.towardZero) {
        tape.append(Tape.word(Tape.int))
        tape.append(UInt64(bitPattern: Int64(d)))
      } else {
        tape.append(Tape.word(Tape.double))
        tape.append(d.bitPattern)
      }
    case .string(let s):
      appendString(s, to: &tape, strings: &strings)
    case .array(let elements):
      let start = tape.count
      tape.append(0)
      for element in elements { append(element, to: &tape, strings: &strings) }
      tape.append(Tape.word(Tape.arrayEnd, UInt64(start)))
      tape[start] = Tape.word(Tape.arrayStart, bracketPayload(count: elements.count, end: tape.count))
    case .object(let members):
      let start = tape.count
      tape.append(0)
      for (name, member) in members {
        appendString(name, to: &tape, strings: &strings)
        append(member, to: &tape, strings: &strings)
      }
      tape.append(Tape.word(Tape.objectEnd, UInt64(start)))
      tape[start] = Tape.word(Tape.objectStart, bracketPayload(count: members.count, end: tape.count))
    }
  }

  private static func bracketPayload(count: Int, end: Int) -> UInt64 {
    UInt64(min(count, Tape.countLimit)) << 32 | UInt64(end)
  }

  private static func appendString(_ s: String, to tape: inout [UInt64], strings: inout [UInt8]) {
    tape.append(Tape.word(Tape.string, UInt64(strings.count)))
    let length = UInt32(s.utf8.count)
    withUnsafeBytes(of: length.littleEndian) { strings.append(contentsOf: $0) }
    strings.append(contentsOf: s.utf8)
    strings.append(0)
  }
}
