internal import CLibYAML

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The kinds of libyaml parse events the loader consumes.
enum EventKind {
  case streamStart, streamEnd, documentStart, documentEnd
  case scalar, sequenceStart, sequenceEnd, mappingStart, mappingEnd, alias
}

/// A libyaml problem: its message and where it was found.
struct SyntaxProblem: Error {
  var message: String
  var line: Int
  var column: Int
}

/// The only type that touches libyaml: a pull parser over a byte buffer or
/// an open file.
///
/// Each ``next()`` deletes the previous event before parsing the next one, so
/// at most one event is alive; `deinit` deletes it and frees the parser. The
/// bytes given to ``init(_:)`` must stay valid (and unmoved) while the parser
/// is in use. Not `Sendable`: one owner, one thread.
final class EventParser {
  private let parser: UnsafeMutablePointer<yaml_parser_t>
  private let event: UnsafeMutablePointer<yaml_event_t>
  private var hasEvent = false
  private let input: UnsafeBufferPointer<UInt8>
  private let file: FileSource?
  /// Bytes of a leading byte order mark, not given to libyaml: with the
  /// encoding set, libyaml would read the mark as a character of line 0.
  /// libyaml's offsets start after them.
  private let skipped: Int

  /// Starts parsing `input`, which must outlive this parser.
  init(_ input: UnsafeBufferPointer<UInt8>) {
    self.input = input
    file = nil
    skipped = Self.byteOrderMarkLength(input)
    parser = .allocate(capacity: 1)
    event = .allocate(capacity: 1)
    yaml_parser_initialize(parser)
    yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
    if let base = input.baseAddress {
      yaml_parser_set_input_string(parser, base + skipped, input.count - skipped)
    } else {
      yaml_parser_set_input_string(parser, "", 0)
    }
  }

  /// Starts parsing the file of `source`, read in chunks as libyaml needs them.
  init(file source: FileSource) {
    input = UnsafeBufferPointer(start: nil, count: 0)
    file = source
    skipped = source.byteOrderMarkLength
    parser = .allocate(capacity: 1)
    event = .allocate(capacity: 1)
    yaml_parser_initialize(parser)
    yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
    // libyaml 0.2 `yaml_read_handler_t`: 1 on success, 0 on failure; `*sizeRead == 0` at the end.
    yaml_parser_set_input(
      parser,
      { data, buffer, size, sizeRead in
        guard let data, let buffer, let sizeRead else { return 0 }
        let source = Unmanaged<FileSource>.fromOpaque(data).takeUnretainedValue()
        guard let count = source.read(into: buffer, capacity: size) else { return 0 }
        sizeRead.pointee = count
        return 1
      }, Unmanaged.passUnretained(source).toOpaque())
  }

  deinit {
    if hasEvent { yaml_event_delete(event) }
    yaml_parser_delete(parser)
    parser.deallocate()
    event.deallocate()
  }

  /// Parses the next event, deleting the current one.
  ///
  /// - Throws: ``SyntaxProblem`` with libyaml's problem and problem mark.
  func next() throws(SyntaxProblem) -> EventKind {
    if hasEvent {
      yaml_event_delete(event)
      hasEvent = false
    }
    guard yaml_parser_parse(parser, event) == 1 else {
      let p = parser.pointee
      var message = p.problem.map { String(cString: $0) } ?? "invalid YAML"
      if let context = p.context {
        message = "\(String(cString: context)): \(message)"
      }
      if p.error == YAML_READER_ERROR {
        // Reader errors (a control character, say) give a byte offset, not a mark.
        let offset = Int(p.problem_offset) + skipped
        let at: (line: Int, column: Int)
        if let file {
          at = file.readAll().withUnsafeBufferPointer { Self.position(ofByte: offset, in: $0) }
        } else {
          at = Self.position(ofByte: offset, in: input)
        }
        throw SyntaxProblem(message: message, line: at.line, column: at.column)
      }
      let mark = p.problem_mark
      throw SyntaxProblem(message: message, line: Int(mark.line), column: Int(mark.column))
    }
    hasEvent = true
    switch event.pointee.type {
    case YAML_STREAM_START_EVENT: return .streamStart
    case YAML_STREAM_END_EVENT: return .streamEnd
    case YAML_DOCUMENT_START_EVENT: return .documentStart
    case YAML_DOCUMENT_END_EVENT: return .documentEnd
    case YAML_SCALAR_EVENT: return .scalar
    case YAML_SEQUENCE_START_EVENT: return .sequenceStart
    case YAML_SEQUENCE_END_EVENT: return .sequenceEnd
    case YAML_MAPPING_START_EVENT: return .mappingStart
    case YAML_MAPPING_END_EVENT: return .mappingEnd
    case YAML_ALIAS_EVENT: return .alias
    default: return .streamEnd
    }
  }

  /// 3 when `input` starts with a UTF-8 byte order mark, else 0.
  static func byteOrderMarkLength(_ input: UnsafeBufferPointer<UInt8>) -> Int {
    input.count >= 3 && input[0] == 0xEF && input[1] == 0xBB && input[2] == 0xBF ? 3 : 0
  }

  /// The 0-based line and column (in Unicode scalars, as libyaml's marks)
  /// of byte `offset` of the whole input, a byte order mark included.
  ///
  /// Lines end as libyaml ends them: at `\n`, `\r\n`, `\r`, U+0085, U+2028
  /// and U+2029. The bytes before `offset` must be valid UTF-8.
  static func position(ofByte offset: Int, in input: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
    var line = 0
    var column = 0
    // A leading byte order mark is not counted: libyaml never sees it.
    var i = byteOrderMarkLength(input)
    let end = min(offset, input.count)
    while i < end {
      let b = input[i]
      var length = 1
      if b == 0x0D, i + 1 < end, input[i + 1] == 0x0A {
        length = 2
      } else if b == 0xC2, i + 1 < end, input[i + 1] == 0x85 {
        length = 2
      } else if b == 0xE2, i + 2 < end, input[i + 1] == 0x80, input[i + 2] == 0xA8 || input[i + 2] == 0xA9 {
        length = 3
      } else if b != 0x0A, b != 0x0D {
        // Not a line break: one more scalar unless a continuation byte.
        if b & 0xC0 != 0x80 { column += 1 }
        i += 1
        continue
      }
      line += 1
      column = 0
      i += length
    }
    return (line, column)
  }

  /// Start of the current event: 0-based line, column in characters.
  var startLine: Int { Int(event.pointee.start_mark.line) }
  var startColumn: Int { Int(event.pointee.start_mark.column) }
  /// End of the current event: 0-based line, column in characters.
  var endLine: Int { Int(event.pointee.end_mark.line) }
  var endColumn: Int { Int(event.pointee.end_mark.column) }

  /// Bytes of the input read so far (advances in libyaml's buffer steps).
  var bytesConsumed: Int { parser.pointee.offset + skipped }

  /// The current scalar's bytes; valid until the next ``next()``.
  var scalarBytes: UnsafeBufferPointer<UInt8> {
    let s = event.pointee.data.scalar
    return UnsafeBufferPointer(start: s.value, count: s.length)
  }

  /// Whether the current scalar is plain (unquoted, not a block scalar).
  var scalarIsPlain: Bool { event.pointee.data.scalar.style == YAML_PLAIN_SCALAR_STYLE }

  /// Whether the current scalar carries the `!!str` tag (or the non-specific `!`).
  var scalarIsTaggedString: Bool {
    guard let tag = event.pointee.data.scalar.tag else { return false }
    let t = String(cString: tag)
    return t == "tag:yaml.org,2002:str" || t == "!"
  }

  /// The anchor of the current scalar, sequence or mapping, if any.
  var anchor: String? {
    let e = event.pointee
    let a: UnsafeMutablePointer<yaml_char_t>?
    switch e.type {
    case YAML_SCALAR_EVENT: a = e.data.scalar.anchor
    case YAML_SEQUENCE_START_EVENT: a = e.data.sequence_start.anchor
    case YAML_MAPPING_START_EVENT: a = e.data.mapping_start.anchor
    default: a = nil
    }
    return a.map { String(cString: $0) }
  }

  /// The anchor name of the current alias event.
  var aliasName: String {
    event.pointee.data.alias.anchor.map { String(cString: $0) } ?? ""
  }
}
