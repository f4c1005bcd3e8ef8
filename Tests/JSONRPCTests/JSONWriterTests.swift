import Testing

@testable import JSONRPC

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The text `write` produces.
private func written(_ write: (inout JSONWriter) -> Void) -> String {
  var json = JSONWriter(capacity: 1)  // Small, so growth is exercised too.
  write(&json)
  let complete = json.isComplete
  #expect(complete)
  return json.text
}

/// The JSON text of a string value.
private func quoted(_ string: String) -> String {
  written { $0.value(string) }
}

/// The JSON text of a number.
private func number(_ double: Double) -> String {
  written { $0.value(double) }
}

@Suite("JSONWriter")
struct JSONWriterTests {
  // MARK: Structure

  @Test func commasGoBetweenElementsAndMembersOnly() {
    let text = written { json in
      json.object { json in
        json.member("a", 1)
        json.key("b")
        json.array { json in
          json.value(true)
          json.null()
          json.beginObject()
          json.endObject()
          json.array { _ in }
          json.value("x")
        }
        json.member("c", [1, 2] as [Int])
        json.key(named: "d")
        json.value(2.5)
      }
    }
    #expect(text == #"{"a":1,"b":[true,null,{},[],"x"],"c":[1,2],"d":2.5}"#)
  }

  @Test func emptyContainersAndScalarsAtTheTop() {
    #expect(written { $0.object { _ in } } == "{}")
    #expect(written { $0.array { _ in } } == "[]")
    #expect(written { $0.null() } == "null")
    #expect(written { $0.value(false) } == "false")
    #expect(written { $0.array([] as [Int]) } == "[]")
  }

  @Test func optionalMembersAreNullOrLeftOut() {
    let none: Int? = nil
    let text = written { json in
      json.object { json in
        json.member("a", none)
        json.member("b", ifPresent: none)
        json.member("c", ifPresent: Optional(3))
        json.member("d", Optional("s"))
      }
    }
    #expect(text == #"{"a":null,"c":3,"d":"s"}"#)
  }

  @Test func keysBuiltAtRunTimeAreEscaped() {
    let text = written { json in
      json.object { json in
        json.key(named: "a\"b\n\u{2028}")
        json.value(1)
      }
    }
    #expect(text == #"{"a\"b\n\u2028":1}"#)
  }

  @Test func removeAllStartsAnotherValue() {
    var json = JSONWriter()
    json.value("first")
    json.removeAll()
    json.array([1, 2])
    #expect(json.text == "[1,2]")
    #expect(json.byteCount == 5)
    #expect(json.bytes == Array("[1,2]".utf8))
  }

  @Test func rawValuesAreCopiedAsTheyAre() {
    var part = JSONWriter()
    part.object { $0.member("n", 1) }
    let text = part.withUnsafeBytes { fragment in
      written { json in
        json.array { json in
          json.rawValue(fragment)
          json.value(2)
          json.rawValue(fragment)
        }
      }
    }
    #expect(text == #"[{"n":1},2,{"n":1}]"#)
  }

  @Test func largeOutputsGrowTheBuffer() {
    let long = String(repeating: "abcdefgh", count: 100_000)
    let text = written { json in
      json.array { json in
        for _ in 0..<3 { json.value(long) }
      }
    }
    #expect(text.utf8.count == 3 * (800_000 + 2) + 2 + 2)
    #expect(text.hasPrefix("[\"abcdefgh") && text.hasSuffix("efgh\"]"))
  }

  // MARK: Strings

  @Test func quotesBackslashesAndControlsAreEscaped() {
    #expect(quoted("") == #""""#)
    #expect(quoted("plain ascii / text") == #""plain ascii / text""#)
    #expect(quoted("a\"b\\c") == #""a\"b\\c""#)
    #expect(quoted("\u{08}\u{09}\u{0A}\u{0C}\u{0D}") == #""\b\t\n\f\r""#)
    #expect(quoted("\u{00}\u{01}\u{0B}\u{0E}\u{1A}\u{1F}") == #""\u0000\u0001\u000b\u000e\u001a\u001f""#)
    #expect(quoted("\u{7F} \u{80} \u{9F}") == "\"\u{7F} \u{80} \u{9F}\"")
  }

  @Test func everyControlCharacterHasItsEscape() {
    let short: [UInt8: String] = [0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0C: "\\f", 0x0D: "\\r"]
    for byte in UInt8(0)..<0x20 {
      let hex = String(byte, radix: 16)
      let expected = short[byte] ?? "\\u00" + (hex.count == 1 ? "0" : "") + hex
      #expect(quoted(String(UnicodeScalar(byte))) == "\"\(expected)\"")
    }
  }

  @Test func lineAndParagraphSeparatorsAreEscaped() {
    #expect(quoted("a\u{2028}b\u{2029}c") == #""a\u2028b\u2029c""#)
    #expect(quoted("\u{2028}") == #""\u2028""#)
    // Their neighbours, with the same lead byte E2 80, are written raw.
    #expect(quoted("\u{2027}\u{202A}\u{2019}…✓") == "\"\u{2027}\u{202A}\u{2019}…✓\"")
  }

  @Test func nonASCIIIsRawUTF8() {
    #expect(quoted("é ✓ 张伟 😀 \u{10FFFF} \u{FEFF}") == "\"é ✓ 张伟 😀 \u{10FFFF} \u{FEFF}\"")
  }

  @Test func escapesAtEveryPositionOfTheEightByteScan() {
    // Each special character at each offset of a 17-byte text, so both the word-at-a-time
    // scan and the byte loop after it meet it.
    for special in ["\"", "\\", "\n", "\u{1F}", "\u{2028}", "\u{2019}"] {
      let escaped = quoted(special).dropFirst().dropLast()
      for offset in 0...17 {
        let text = String(repeating: "a", count: offset) + special + String(repeating: "b", count: 17 - offset)
        let expected =
          "\"" + String(repeating: "a", count: offset) + escaped + String(repeating: "b", count: 17 - offset) + "\""
        #expect(quoted(text) == expected, "\(special.debugDescription) at \(offset)")
      }
    }
  }

  @Test func plainStringsOfEveryLength() {
    // Lengths around the 4-, 8- and 16-byte copies and the 8-byte scan.
    let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ")
    for length in 0...alphabet.count {
      let text = String(alphabet[0..<length])
      #expect(quoted(text) == "\"\(text)\"", "length \(length)")
      #expect(quoted(text + "\n") == "\"\(text)\\n\"", "length \(length) and a newline")
      #expect(quoted(text + "é") == "\"\(text)é\"", "length \(length) and é")
    }
  }

  @Test func keysOfManyLengths() {
    let text = written { json in
      json.object { json in
        json.member("a", 1)
        json.member("abc", 3)
        json.member("abcd", 4)
        json.member("abcdefg", 7)
        json.member("abcdefgh", 8)
        json.member("abcdefghijklmnop", 16)
        json.member("abcdefghijklmnopq", 17)
        json.member("é", 2)
      }
    }
    #expect(
      text == #"{"a":1,"abc":3,"abcd":4,"abcdefg":7,"abcdefgh":8,"abcdefghijklmnop":16,"abcdefghijklmnopq":17,"é":2}"#)
  }

  @Test func stringsFromUTF8Bytes() {
    let bytes = Array("a\"é\u{2029}".utf8)
    let text = bytes.withUnsafeBufferPointer { utf8 in written { $0.value(utf8: utf8) } }
    #expect(text == #""a\"é\u2029""#)
  }

  // MARK: Numbers

  @Test func integers() {
    #expect(written { $0.value(0) } == "0")
    #expect(written { $0.value(-7) } == "-7")
    #expect(written { $0.value(Int64.max) } == "9223372036854775807")
    #expect(written { $0.value(Int64.min) } == "-9223372036854775808")
    #expect(written { $0.value(UInt64.max) } == "18446744073709551615")
    #expect(written { $0.value(Int32.min) } == "-2147483648")
    #expect(written { $0.value(UInt8(255)) } == "255")
    var power: Int64 = 1
    for digits in 1...18 {
      #expect(written { $0.value(power) } == "1" + String(repeating: "0", count: digits - 1))
      #expect(written { $0.value(power - 1) } == (digits == 1 ? "0" : String(repeating: "9", count: digits - 1)))
      power *= 10
    }
  }

  @Test func integralDoublesHaveNoFraction() {
    #expect(number(0) == "0")
    #expect(number(-0.0) == "-0")
    #expect(number(3) == "3")
    #expect(number(-42) == "-42")
    #expect(number(9_007_199_254_740_992) == "9007199254740992")  // 2^53
    #expect(number(-9_007_199_254_740_992) == "-9007199254740992")
    #expect(number(1e15) == "1000000000000000")
  }

  @Test func otherDoublesAreTheShortestRoundTrip() {
    #expect(number(0.1) == "0.1")
    #expect(number(-2.5) == "-2.5")
    #expect(number(0.1 + 0.2) == "0.30000000000000004")
    #expect(number(1e300) == "1e300")
    #expect(number(-1e300) == "-1e300")
    #expect(number(.leastNonzeroMagnitude) == "5e-324")
    #expect(number(1e-5) == "1e-5")
    #expect(number(0.0001) == "0.0001")
    #expect(number(2.5e21) == "2.5e21")
    #expect(number(Double.greatestFiniteMagnitude) == "1.7976931348623157e308")
    #expect(number(Double.leastNormalMagnitude) == "2.2250738585072014e-308")
    #expect(number(9_007_199_254_740_994) == "9.007199254740994e15")  // 2^53 + 2
    #expect(number(0x1p63) == "9.223372036854776e18")
  }

  @Test func nonFiniteDoublesAreNull() {
    #expect(number(.nan) == "null")
    #expect(number(-.nan) == "null")
    #expect(number(.signalingNaN) == "null")
    #expect(number(.infinity) == "null")
    #expect(number(-.infinity) == "null")
    #expect(written { $0.array([1.5, .nan, .infinity, -0.0]) } == "[1.5,null,null,-0]")
  }
}

#if DEBUG
  /// A debug build stops at a call that would write malformed JSON.
  @Suite("JSONWriter shape checks (debug builds)")
  struct JSONWriterShapeTests {
    @Test func aKeyInAnArrayStops() async {
      await #expect(processExitsWith: .failure) {
        var json = JSONWriter()
        json.beginArray()
        json.key("a")
      }
    }

    @Test func aValueWithoutAKeyInAnObjectStops() async {
      await #expect(processExitsWith: .failure) {
        var json = JSONWriter()
        json.beginObject()
        json.value(1)
      }
    }

    @Test func closingTheWrongContainerStops() async {
      await #expect(processExitsWith: .failure) {
        var json = JSONWriter()
        json.beginObject()
        json.endArray()
      }
    }

    @Test func aStaticKeyThatNeedsEscapingStops() async {
      await #expect(processExitsWith: .failure) {
        var json = JSONWriter()
        json.object { $0.member("a\"b", 1) }
      }
    }
  }
#endif

/// Every value writes only into the room it reserved (a debug build checks each byte
/// against the buffer's capacity): each kind of value is written where the buffer
/// ends, after fillers of every length, and must read back as written.
@Suite struct JSONWriterRoomTests {
  @Test func everyKindOfValueFitsWhereverTheBufferEnds() throws {
    let values: [(String, (inout JSONWriter) -> Void)] = [
      ("-0", { $0.value(-0.0) }), ("1.5", { $0.value(1.5) }), ("1e300", { $0.value(1e300) }),
      ("-9223372036854775808", { $0.value(Int64.min) }), ("18446744073709551615", { $0.value(UInt64.max) }),
      ("true", { $0.value(true) }), ("null", { $0.null() }),
      (#""a\"b\u0001é\u2028""#, { $0.value("a\"b\u{01}é\u{2028}") }),
      (#""abcdefghijklmnopqrstu""#, { $0.value("abcdefghijklmnopqrstu") }),
      (
        "{}",
        {
          $0.beginObject(); $0.endObject()
        }
      ),
      (
        "[]",
        {
          $0.beginArray(); $0.endArray()
        }
      ),
    ]
    for (expected, write) in values {
      for filler in 0..<40 {
        var json = JSONWriter(capacity: 16)
        json.beginArray()
        json.value(String(repeating: "x", count: filler))
        write(&json)
        json.endArray()
        #expect(json.text == "[\"\(String(repeating: "x", count: filler))\",\(expected)]", "after \(filler)")
      }
    }
  }
}

extension JSONWriterRoomTests {
  /// The escaping scan reads 8 bytes at a time, but never past the end it is given,
  /// whatever follows in memory.
  @Test func theScanForBytesToEscapeStopsAtItsEnd() {
    let plain = [UInt8](repeating: UInt8(ascii: "a"), count: 64)
    plain.withUnsafeBufferPointer { p in
      for end in 0...40 {
        #expect(JSONWriter.nextSpecialByte(p.baseAddress!, from: 0, to: end) == end, "end \(end)")
        #expect(JSONWriter.nextSpecialByte(p.baseAddress!, from: min(3, end), to: end) == end, "end \(end)")
      }
    }
    var quoteAt = plain
    quoteAt[21] = UInt8(ascii: "\"")
    quoteAt.withUnsafeBufferPointer { p in
      #expect(JSONWriter.nextSpecialByte(p.baseAddress!, from: 0, to: 40) == 21)
      #expect(JSONWriter.nextSpecialByte(p.baseAddress!, from: 0, to: 21) == 21)
    }
  }
}

extension JSONWriterRoomTests {
  /// A string given as bytes is read up to its last byte and never past it, though the scan
  /// reads 8 bytes at a time: bytes that end where readable memory ends are written without
  /// a fault, plain or with escapes anywhere.
  @Test func stringBytesAreReadUpToTheirEndAndNoFurther() throws {
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    let region = try #require(mmap(nil, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
    try #require(region != UnsafeMutableRawPointer(bitPattern: -1))
    defer { munmap(region, 2 * page) }
    // The page after the text can be neither read nor written.
    try #require(mprotect(region + page, page, PROT_NONE) == 0)
    let end = (region + page).assumingMemoryBound(to: UInt8.self)
    var texts: [[UInt8]] = []
    for length in 0...40 {
      let plain = [UInt8](repeating: UInt8(ascii: "a"), count: length)
      texts.append(plain)
      texts.append([UInt8(ascii: "\"")] + plain)
      texts.append(plain + [UInt8(ascii: "\n")])
      texts.append(plain + Array("\u{2028}".utf8))
      texts.append(plain + Array("\u{2000}".utf8))
    }
    for text in texts {
      let start = end - text.count
      start.update(from: text, count: text.count)
      let fromBytes = written { $0.value(utf8: UnsafeBufferPointer(start: start, count: text.count)) }
      #expect(fromBytes == quoted(String(decoding: text, as: UTF8.self)), "\(text)")
    }
  }
}

extension JSONWriterRoomTests {
  /// Each typed `member` overload writes its key and its value.
  @Test func everyMemberOverloadWritesItsKeyAndValue() {
    var json = JSONWriter()
    json.object { json in
      json.member("i", 7)
      json.member("d", 2.5)
      json.member("b", false)
      json.member("s", "x")
      json.member("v", JSONValue.array([1]))
      json.member("p", ifPresent: Optional(JSONValue.null))
      json.member("q", ifPresent: JSONValue?.none)
    }
    #expect(json.text == #"{"i":7,"d":2.5,"b":false,"s":"x","v":[1],"p":null}"#)
  }
}
