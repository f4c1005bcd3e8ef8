import OutlineModel

/// Where a group-definition file is read from.
public enum LoaderInput: Sendable {
  /// The file's raw bytes, whole in memory.
  case bytes([UInt8])
  /// An open file, read from its start in chunks (with `pread`) as libyaml
  /// needs them, so that it is never whole in memory. The caller keeps the
  /// descriptor (it must stay open during the read; the loader does not close
  /// it). `size` is the file's size in bytes (from `fstat`), used for
  /// progress only.
  case file(descriptor: Int32, size: Int)
}

/// Loads a group-definition file (YAML 1.2, or JSON) into an ``OutlineDocument``
/// or any ``OutlineSink``.
///
/// The file is read in one pass from libyaml's event API by recursive
/// descent along the outline schema (PROTOCOL §3), and what it holds is
/// sent to the sink as it goes: nothing is kept per item once sent. YAML
/// anchors are recorded (only they) and replayed where an alias names them.
/// Scalars are typed by their field: string fields keep the text as written
/// (`no`, `012`, `~` stay strings), booleans take only plain `true`/`false`,
/// numbers only plain numbers, and `data:` follows the YAML 1.2 core schema.
///
/// Diagnostic codes (stable, kebab-case): `syntax`, `duplicate-key`,
/// `duplicate-id`, `type`, `missing-title`, `tab-indentation`,
/// `multiple-documents`, `unknown-key` (a warning), `too-many-nodes`,
/// `too-deep`, `invalid-utf8`, `not-a-mapping`, `empty`.
public struct OutlineLoader {
  /// Limits on what a file may expand to, and how it is read.
  public struct Options: Sendable {
    /// Most nodes (scalars, sequences, mappings) the document may hold,
    /// counted with aliases expanded (`--max-nodes`).
    public var maxNodes = 10_000_000
    /// Deepest nesting of sequences and mappings, counted with aliases
    /// expanded; the top-level mapping is level 1.
    public var maxDepth = 256
    /// Most bytes asked of a ``LoaderInput/file(descriptor:size:)`` per read
    /// (libyaml asks for at most its 16 KiB raw buffer); at least 1.
    public var readChunkSize = 1 << 16

    /// The defaults: 10,000,000 nodes, depth 256 (PROTOCOL §3), 64 KiB reads.
    public init() {}
  }

  /// A file that could not be read (not a problem of its content).
  public struct ReadError: Error, Sendable {
    /// The `errno` of the failed `pread`.
    public var code: Int32
  }

  /// Parses and checks a group-definition file.
  ///
  /// - Parameters:
  ///   - bytes: the file's raw bytes: UTF-8, with or without a byte order mark.
  ///   - options: node and depth limits.
  ///   - shouldCancel: polled now and then (every few thousand events);
  ///     returning `true` stops the load.
  ///   - progress: receives the fraction of bytes consumed (0...1), called
  ///     at most about 100 times, in increasing order.
  /// - Returns: the document and its diagnostics; the document is `nil` if
  ///   and only if a diagnostic is an error. Positions are 0-based lines and
  ///   columns in Unicode scalars as libyaml counts them (see ``SourceText``
  ///   to convert them).
  /// - Throws: `CancellationError` when `shouldCancel` returned `true`.
  /// - Complexity: O(n) in the file's size plus the expanded node count.
  public static func load(
    _ bytes: [UInt8], options: Options = .init(), shouldCancel: (() -> Bool)? = nil,
    progress: ((Double) -> Void)? = nil
  ) throws -> LoadResult {
    var builder = DocumentBuilder()
    let diagnostics = try read(
      .bytes(bytes), into: &builder, options: options, shouldCancel: shouldCancel, progress: progress)
    let failed = diagnostics.contains { $0.severity == .error }
    return LoadResult(document: failed ? nil : builder.document, diagnostics: diagnostics)
  }

  /// Reads a group-definition file into `sink`, streaming.
  ///
  /// The sink gets the file's content in file order as it is read (see
  /// ``OutlineSink``); when a diagnostic is an error its content is
  /// incomplete and must be dropped. A file whose JSON-style surrogate-pair
  /// escapes libyaml refuses is read a second time, rewritten (then whole
  /// in memory): `sink` is first replaced by an empty one, `S()`.
  ///
  /// - Parameters:
  ///   - input: the bytes, or an open regular file (UTF-8, with or without
  ///     a byte order mark). A file is checked as UTF-8 chunk by chunk; it is
  ///     read whole only to place an error (`invalid-utf8`, `syntax`,
  ///     `tab-indentation`).
  ///   - sink: receives the outline.
  ///   - options: node and depth limits, read size.
  ///   - shouldCancel: polled now and then (every 4096 events, those of
  ///     aliases replayed included); returning `true` stops the read.
  ///   - progress: receives the fraction of bytes consumed (0...1), called
  ///     at most about 100 times, in increasing order, the last with 1.
  /// - Returns: errors and warnings sorted by position (then errors first).
  ///   Positions are 0-based lines and columns in Unicode scalars as libyaml
  ///   counts them: U+0085, U+2028 and U+2029 end a line too (see ``SourceText``).
  /// - Throws: `CancellationError` when `shouldCancel` returned `true`;
  ///   ``ReadError`` when the file could not be read.
  /// - Complexity: O(n) in the file's size plus the expanded node count;
  ///   memory O(depth + anchored nodes + explicit ids), whatever the sink keeps aside.
  public static func read<S: OutlineSink>(
    _ input: LoaderInput, into sink: inout S, options: Options = .init(), shouldCancel: (() -> Bool)? = nil,
    progress: ((Double) -> Void)? = nil
  ) throws -> [Diagnostic] {
    let outcome: (Result<[Diagnostic], BuildStop>, structural: [Diagnostic])
    let whole: () -> [UInt8]
    switch input {
    case .bytes(let bytes):
      if let bad = firstInvalidUTF8(bytes) { return [invalidUTF8(at: bad, in: bytes)] }
      outcome = bytes.withUnsafeBufferPointer { buffer in
        run(EventParser(buffer), size: buffer.count, into: &sink, options, shouldCancel, progress)
      }
      whole = { bytes }
    case .file(let descriptor, let size):
      let source = FileSource(descriptor: descriptor, size: size, chunkSize: options.readChunkSize)
      outcome = run(EventParser(file: source), size: size, into: &sink, options, shouldCancel, progress)
      if case .failure(.cancelled) = outcome.0 { throw CancellationError() }
      source.checkRest()
      if let code = source.readError { throw ReadError(code: code) }
      if let bad = source.invalidUTF8 { return [invalidUTF8(at: bad, in: source.readAll())] }
      whole = { source.readAll() }
    }
    var diagnostics = outcome.structural
    switch outcome.0 {
    case .failure(.cancelled):
      throw CancellationError()
    case .failure(.fatal(let d)):
      if d.message.contains("invalid Unicode character escape"), let rewritten = joiningSurrogatePairs(whole()) {
        // libyaml refuses `\uD83C\uDF34`, JSON's way to write a scalar past U+FFFF.
        sink = S()
        return try read(
          .bytes(rewritten), into: &sink, options: options, shouldCancel: shouldCancel, progress: progress)
      }
      diagnostics.append(d.code == "syntax" ? tabIndentation(d, whole()) ?? d : d)
    case .success(let found):
      diagnostics += found
    }
    diagnostics.sort { ($0.range.start, $0.severity.rawValue) < ($1.range.start, $1.severity.rawValue) }
    progress?(1)
    return diagnostics
  }

  /// Reads the events of `parser` into `sink`: the schema's diagnostics, or
  /// why it stopped; and the event stream's own diagnostics either way.
  private static func run<S: OutlineSink>(
    _ parser: EventParser, size: Int, into sink: inout S, _ options: Options, _ shouldCancel: (() -> Bool)?,
    _ progress: ((Double) -> Void)?
  ) -> (Result<[Diagnostic], BuildStop>, structural: [Diagnostic]) {
    let events = EventStream(
      parser, inputSize: size, maxNodes: options.maxNodes, maxDepth: options.maxDepth, shouldCancel: shouldCancel,
      progress: progress)
    var reader = StreamReader(events: events, sink: sink)
    // The reader's copy is the only one that grows; this hands it back.
    defer { sink = reader.sink as! S }
    do throws(BuildStop) {
      try reader.read()
    } catch {
      return (.failure(error), reader.events.diagnostics)
    }
    var found = reader.diagnostics
    if !reader.sawDocument, reader.events.diagnostics.isEmpty {
      found.append(
        Diagnostic(
          range: .zero, severity: .error, code: "empty",
          message: "the file is empty: expected a mapping with \"groups\""))
    }
    return (.success(found), reader.events.diagnostics)
  }

  /// The `invalid-utf8` error for the byte at `offset` of `bytes`.
  private static func invalidUTF8(at offset: Int, in bytes: [UInt8]) -> Diagnostic {
    let at = position(of: offset, in: bytes)
    let end = SourcePosition(line: at.line, column: at.column + 1)
    return Diagnostic(
      range: SourceRange(start: at, end: end), severity: .error, code: "invalid-utf8",
      message: "the file is not valid UTF-8: byte 0x\(hex(bytes[offset])) at offset \(offset)")
  }

  /// `bytes` with every escaped UTF-16 surrogate pair (`\uD83C\uDF34`, as JSON
  /// writes a character past U+FFFF) replaced by YAML's 8-digit escape
  /// (`\U0001F334`); `nil` when there is none. Columns after a pair on its
  /// line move 2 to the left. The bytes are not read for context: a pair that
  /// appears outside a double-quoted scalar is taken literally by YAML and so
  /// could not have caused the error this answers.
  static func joiningSurrogatePairs(_ bytes: [UInt8]) -> [UInt8]? {
    func hex(_ i: Int) -> UInt32? {
      guard i + 4 <= bytes.count else { return nil }
      var v: UInt32 = 0
      for b in bytes[i..<(i + 4)] {
        guard let d = Character(Unicode.Scalar(b)).hexDigitValue else { return nil }
        v = v * 16 + UInt32(d)
      }
      return v
    }
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var changed = false
    var i = 0
    while i < bytes.count {
      if bytes[i] == UInt8(ascii: "\\"), i + 11 < bytes.count, bytes[i + 1] == UInt8(ascii: "u"),
        bytes[i + 6] == UInt8(ascii: "\\"), bytes[i + 7] == UInt8(ascii: "u"),
        let high = hex(i + 2), (0xD800...0xDBFF).contains(high), let low = hex(i + 8), (0xDC00...0xDFFF).contains(low)
      {
        let scalar = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
        let digits = String(scalar, radix: 16, uppercase: true)
        out.append(contentsOf: Array("\\U".utf8) + Array(repeating: UInt8(ascii: "0"), count: 8 - digits.count))
        out.append(contentsOf: Array(digits.utf8))
        i += 12
        changed = true
        continue
      }
      if bytes[i] == UInt8(ascii: "\\"), i + 1 < bytes.count {
        // Keep an escaped backslash whole, so `\\uD83C` stays text.
        out.append(bytes[i])
        out.append(bytes[i + 1])
        i += 2
        continue
      }
      out.append(bytes[i])
      i += 1
    }
    return changed ? out : nil
  }

  /// Turns a syntax error on a line indented with a tab into a
  /// `tab-indentation` error at that tab (YAML 1.2.2 §6.1: tabs are not indentation).
  private static func tabIndentation(_ d: Diagnostic, _ bytes: [UInt8]) -> Diagnostic? {
    let line = d.range.start.line
    guard let start = lineStart(line, in: bytes) else { return nil }
    var i = start
    while i < bytes.count, bytes[i] == UInt8(ascii: " ") || bytes[i] == UInt8(ascii: "\t") {
      if bytes[i] == UInt8(ascii: "\t") {
        guard i - start <= d.range.start.column else { return nil }
        let at = SourcePosition(line: line, column: i - start)
        return Diagnostic(
          range: SourceRange(start: at, end: SourcePosition(line: line, column: at.column + 1)), severity: .error,
          code: "tab-indentation", message: "a tab is used as indentation; indent with spaces")
      }
      i += 1
    }
    return nil
  }

  /// The byte offset where 0-based `line` starts (after a BOM), counting
  /// line breaks as libyaml does (`\n`, `\r\n`, `\r`, U+0085, U+2028, U+2029).
  private static func lineStart(_ line: Int, in bytes: [UInt8]) -> Int? {
    var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    var current = 0
    while current < line {
      guard i < bytes.count else { return nil }
      let b = bytes[i]
      if b == 0x0A {
        current += 1
      } else if b == 0x0D {
        if i + 1 < bytes.count, bytes[i + 1] == 0x0A { i += 1 }
        current += 1
      } else if b == 0xC2, i + 1 < bytes.count, bytes[i + 1] == 0x85 {
        i += 1
        current += 1
      } else if b == 0xE2, i + 2 < bytes.count, bytes[i + 1] == 0x80, bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9 {
        i += 2
        current += 1
      }
      i += 1
    }
    return i
  }

  /// The 0-based line and column (in scalars, as libyaml's marks) of byte
  /// `offset` of the whole file, a byte order mark included.
  private static func position(of offset: Int, in bytes: [UInt8]) -> SourcePosition {
    let at = bytes.withUnsafeBufferPointer { EventParser.position(ofByte: offset, in: $0) }
    return SourcePosition(line: at.line, column: at.column)
  }

  private static func hex(_ b: UInt8) -> String {
    let s = String(b, radix: 16, uppercase: true)
    return s.count == 1 ? "0" + s : s
  }

  /// The offset of the first byte that is not part of well-formed UTF-8
  /// (Unicode §3.9, Table 3-7), or `nil`.
  static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
    var checker = UTF8Checker()
    return bytes.withUnsafeBufferPointer { checker.check($0, at: 0) } ?? checker.finish()
  }
}

/// What ``OutlineLoader/load(_:options:shouldCancel:progress:)`` found.
public struct LoadResult: Sendable {
  /// The document, or `nil` if and only if ``diagnostics`` has an error.
  public var document: OutlineDocument?
  /// Errors and warnings, in source order.
  public var diagnostics: [Diagnostic]

  /// A result with the given members.
  public init(document: OutlineDocument?, diagnostics: [Diagnostic]) {
    self.document = document
    self.diagnostics = diagnostics
  }
}
