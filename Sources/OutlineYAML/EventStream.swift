import OutlineModel

/// Why reading the event stream stopped early.
enum BuildStop: Error {
  case cancelled
  /// A diagnostic after which nothing more is read (syntax, limits).
  case fatal(Diagnostic)
}

/// One parse event as the schema reader sees it, live or replayed.
struct Event {
  enum Kind: UInt8 {
    case scalar, sequenceStart, sequenceEnd, mappingStart, mappingEnd
    /// An alias; `target` is the recording of the anchored node.
    case alias
    /// A second document starts (live only).
    case documentStart
    /// The stream ends (live only).
    case streamEnd
  }

  var kind: Kind
  /// A scalar written plain (no quotes, no block style, no `!!str` tag).
  var plain: Bool
  /// The node's number in live document order: scalars, collection starts
  /// and aliases are numbered; a replayed node keeps its number.
  var id: Int
  var startLine: Int32
  var startColumn: Int32
  var endLine: Int32
  var endColumn: Int32
  /// A scalar's bytes: valid until the next event is pulled.
  var bytes: UnsafeBufferPointer<UInt8>
  /// Alias: the index of the recording it stands for.
  var target: Int

  var range: SourceRange {
    SourceRange(
      start: SourcePosition(line: Int(startLine), column: Int(startColumn)),
      end: SourcePosition(line: Int(endLine), column: Int(endColumn)))
  }

  var isCollectionStart: Bool { kind == .sequenceStart || kind == .mappingStart }
  var isEnd: Bool { kind == .sequenceEnd || kind == .mappingEnd }
}

/// An event kept in a recording: like ``Event`` with the scalar bytes in the arena.
private struct Recorded {
  enum Kind: UInt8 {
    case scalar, sequenceStart, sequenceEnd, mappingStart, mappingEnd, alias
    /// A nested anchored node, kept in its own recording `payload`.
    case embed
  }

  var kind: Kind
  var plain: Bool
  var count: Int32
  var id: Int
  var startLine: Int32
  var startColumn: Int32
  var endLine: Int32
  var endColumn: Int32
  /// Scalar: offset in the arena. Alias, embed: a recording index.
  var payload: Int
}

/// The events of one anchored node, and its size and height with aliases expanded.
private struct Recording {
  var events: [Recorded] = []
  var size = 0
  var height = 0
  var complete = false
}

/// Scalar bytes of all recordings, in one block that only grows.
///
/// A hand-managed buffer: pointers into it handed out with a replayed event
/// stay valid until the next live scalar is recorded, which cannot happen
/// before the next event is pulled.
private final class Arena {
  private(set) var base: UnsafeMutablePointer<UInt8>
  private(set) var count = 0
  private var capacity = 256

  init() { base = .allocate(capacity: capacity) }
  deinit { base.deallocate() }

  func append(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    let at = count
    if count + bytes.count > capacity {
      var newCapacity = capacity * 2
      while count + bytes.count > newCapacity { newCapacity *= 2 }
      let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
      grown.update(from: base, count: count)
      base.deallocate()
      base = grown
      capacity = newCapacity
    }
    assert(count + bytes.count <= capacity, "the arena did not grow enough")
    if let source = bytes.baseAddress { (base + count).update(from: source, count: bytes.count) }
    count += bytes.count
    return at
  }
}

/// libyaml's events, with anchors kept and aliases replayed.
///
/// Live events are counted against the limits with aliases expanded: each
/// anchored node's expanded size and height are known when it ends, so an
/// alias is charged in O(1), without expanding anything (this bounds the
/// "billion laughs"). Only anchored nodes are recorded; a nested anchored
/// node is kept once, in its own recording, and its enclosing recording
/// refers to it. An alias is handed to the reader, which calls
/// ``replay(_:)`` to read the recording through the same ``next()``.
struct EventStream {
  private struct Frame {
    var size: Int
    var height: Int
    /// The recording this collection starts, or -1.
    var recording: Int
  }

  private let parser: EventParser
  private let inputSize: Int
  private let maxNodes: Int
  private let maxDepth: Int
  private let shouldCancel: (() -> Bool)?
  private let progress: ((Double) -> Void)?
  /// Problems found while reading events that do not stop it (undefined
  /// aliases, a second document).
  var diagnostics: [Diagnostic] = []
  /// Nodes that stand in for a bad alias, already diagnosed.
  var placeholders: Set<Int> = []

  private var frames: [Frame] = []
  private var recordings: [Recording] = []
  private var recorders: [Int] = []
  private var anchors: [String: Int] = [:]
  private let arena = Arena()
  private var replays: [(recording: Int, position: Int)] = []
  private var total = 0
  private var nodeCount = 0
  private var documents = 0
  private var countdown = 4096
  private var lastReported = 0.0

  init(
    _ parser: EventParser, inputSize: Int, maxNodes: Int, maxDepth: Int, shouldCancel: (() -> Bool)?,
    progress: ((Double) -> Void)?
  ) {
    self.parser = parser
    self.inputSize = inputSize
    self.maxNodes = min(max(maxNodes, 0), Int.max / 4)
    self.maxDepth = max(maxDepth, 0)
    self.shouldCancel = shouldCancel
    self.progress = progress
  }

  /// Reads the next event of the recording being replayed, or else of the parser.
  mutating func next() throws(BuildStop) -> Event {
    while let top = replays.last {
      let r = recordings[top.recording]
      guard top.position < r.events.count else {
        replays.removeLast()
        continue
      }
      replays[replays.count - 1].position += 1
      // Replayed events are polled too: an alias may expand to millions of them.
      countdown -= 1
      if countdown == 0 { try poll() }
      let e = r.events[top.position]
      let kind: Event.Kind
      switch e.kind {
      case .embed:
        replays.append((e.payload, 0))
        continue
      case .scalar: kind = .scalar
      case .sequenceStart: kind = .sequenceStart
      case .sequenceEnd: kind = .sequenceEnd
      case .mappingStart: kind = .mappingStart
      case .mappingEnd: kind = .mappingEnd
      case .alias: kind = .alias
      }
      return Event(
        kind: kind, plain: e.plain, id: e.id, startLine: e.startLine, startColumn: e.startColumn,
        endLine: e.endLine, endColumn: e.endColumn,
        bytes: kind == .scalar
          ? UnsafeBufferPointer(start: arena.base + e.payload, count: Int(e.count))
          : UnsafeBufferPointer(start: nil, count: 0),
        target: e.payload)
    }
    return try live()
  }

  /// Makes the node of `alias` (an event from ``next()``) the next events.
  mutating func replay(_ alias: Event) {
    replays.append((alias.target, 0))
  }

  private mutating func live() throws(BuildStop) -> Event {
    while true {
      countdown -= 1
      if countdown == 0 { try poll() }
      let kind: EventKind
      do {
        kind = try parser.next()
      } catch {
        throw .fatal(
          Diagnostic(
            range: SourceRange(
              start: SourcePosition(line: error.line, column: error.column),
              end: SourcePosition(line: error.line, column: error.column)),
            severity: .error, code: "syntax", message: error.message))
      }
      var e = Event(
        kind: .scalar, plain: false, id: 0,
        startLine: Int32(truncatingIfNeeded: parser.startLine),
        startColumn: Int32(truncatingIfNeeded: parser.startColumn),
        endLine: Int32(truncatingIfNeeded: parser.endLine),
        endColumn: Int32(truncatingIfNeeded: parser.endColumn),
        bytes: UnsafeBufferPointer(start: nil, count: 0), target: 0)
      switch kind {
      case .streamStart, .documentEnd:
        continue
      case .streamEnd:
        e.kind = .streamEnd
        return e
      case .documentStart:
        documents += 1
        if documents > 1 {
          diagnostics.append(
            Diagnostic(
              range: e.range, severity: .error, code: "multiple-documents",
              message: "a file holds one YAML document, found a second"))
          e.kind = .documentStart
          return e
        }
        continue
      case .scalar:
        e.bytes = parser.scalarBytes
        e.plain = parser.scalarIsPlain && !parser.scalarIsTaggedString
        e.id = try add(e)
        if let anchor = parser.anchor {
          let index = recordings.count
          recordings.append(Recording(size: 1, height: 0, complete: true))
          anchors[anchor] = index
          if let outer = recorders.last { recordings[outer].events.append(reference(.embed, e, index)) }
          record(e, into: index)
        } else if let outer = recorders.last {
          record(e, into: outer)
        }
        finish(size: 1, height: 0)
        return e
      case .sequenceStart, .mappingStart:
        e.kind = kind == .sequenceStart ? .sequenceStart : .mappingStart
        if frames.count + 1 > maxDepth {
          throw .fatal(
            Diagnostic(
              range: e.range, severity: .error, code: "too-deep",
              message: "the document nests deeper than \(maxDepth) levels"))
        }
        e.id = try add(e)
        var recording = -1
        if let anchor = parser.anchor {
          recording = recordings.count
          recordings.append(Recording())
          anchors[anchor] = recording
          if let outer = recorders.last { recordings[outer].events.append(reference(.embed, e, recording)) }
          recorders.append(recording)
        }
        if let current = recorders.last { record(e, into: current) }
        frames.append(Frame(size: 1, height: 1, recording: recording))
        return e
      case .sequenceEnd, .mappingEnd:
        e.kind = kind == .sequenceEnd ? .sequenceEnd : .mappingEnd
        let frame = frames.removeLast()
        if let current = recorders.last { record(e, into: current) }
        if frame.recording >= 0 {
          recordings[frame.recording].size = frame.size
          recordings[frame.recording].height = frame.height
          recordings[frame.recording].complete = true
          recorders.removeLast()
        }
        finish(size: frame.size, height: frame.height)
        return e
      case .alias:
        let name = parser.aliasName
        guard let target = anchors[name], recordings[target].complete else {
          diagnostics.append(
            Diagnostic(
              range: e.range, severity: .error, code: "syntax",
              message: anchors[name] != nil
                ? "alias \"\(name)\" refers to a node that contains it" : "undefined alias \"\(name)\""))
          // Stands in as an empty scalar so that the rest can be checked.
          e.plain = true
          e.id = try add(e)
          placeholders.insert(e.id)
          if let current = recorders.last { record(e, into: current) }
          finish(size: 1, height: 0)
          return e
        }
        let found = recordings[target]
        if frames.count + found.height > maxDepth {
          throw .fatal(
            Diagnostic(
              range: e.range, severity: .error, code: "too-deep",
              message: "alias \"\(name)\" nests the document deeper than \(maxDepth) levels"))
        }
        if total + found.size > maxNodes {
          throw .fatal(
            Diagnostic(
              range: e.range, severity: .error, code: "too-many-nodes",
              message: "alias \"\(name)\" expands the document past \(maxNodes) nodes"))
        }
        total += found.size - 1  // `add` charges the last one.
        e.kind = .alias
        e.target = target
        e.id = try add(e)
        if let current = recorders.last { recordings[current].events.append(reference(.alias, e, target)) }
        finish(size: found.size, height: found.height)
        return e
      }
    }
  }

  /// Polls for cancellation and reports progress (every 4096 events, live or replayed).
  private mutating func poll() throws(BuildStop) {
    countdown = 4096
    if let shouldCancel, shouldCancel() { throw .cancelled }
    if let progress, inputSize > 0 {
      let fraction = min(1, Double(parser.bytesConsumed) / Double(inputSize))
      if fraction - lastReported >= 0.01 {
        lastReported = fraction
        progress(fraction)
      }
    }
  }

  private func reference(_ kind: Recorded.Kind, _ e: Event, _ recording: Int) -> Recorded {
    Recorded(
      kind: kind, plain: false, count: 0, id: e.id, startLine: e.startLine, startColumn: e.startColumn,
      endLine: e.endLine, endColumn: e.endColumn, payload: recording)
  }

  private mutating func record(_ e: Event, into recording: Int) {
    let kind: Recorded.Kind
    var payload = 0
    switch e.kind {
    case .scalar:
      kind = .scalar
      payload = arena.append(e.bytes)
    case .sequenceStart: kind = .sequenceStart
    case .sequenceEnd: kind = .sequenceEnd
    case .mappingStart: kind = .mappingStart
    case .mappingEnd: kind = .mappingEnd
    case .alias, .documentStart, .streamEnd: return
    }
    recordings[recording].events.append(
      Recorded(
        kind: kind, plain: e.plain, count: Int32(truncatingIfNeeded: e.bytes.count), id: e.id,
        startLine: e.startLine, startColumn: e.startColumn, endLine: e.endLine, endColumn: e.endColumn,
        payload: payload))
  }

  /// Charges the node that starts with `e` against the limit and numbers it.
  @inline(__always)
  private mutating func add(_ e: Event) throws(BuildStop) -> Int {
    total += 1
    if total > maxNodes {
      throw .fatal(
        Diagnostic(
          range: e.range, severity: .error, code: "too-many-nodes",
          message: "the document has more than \(maxNodes) nodes"))
    }
    nodeCount += 1
    return nodeCount - 1
  }

  /// Adds a finished child's expanded size and height to its parent.
  @inline(__always)
  private mutating func finish(size: Int, height: Int) {
    guard !frames.isEmpty else { return }
    let last = frames.count - 1
    frames[last].size += size
    frames[last].height = max(frames[last].height, height + 1)
  }
}
