import OutlineModel

/// The first event of a node, with the alias that brought it if any.
struct Head {
  /// The node's first event: a scalar, or a collection start (never an alias).
  var event: Event
  /// The number of the node as written here: the alias's when there is one.
  var ownID: Int
  /// The range of the alias that brought the node.
  var alias: SourceRange?

  /// Where the node as written here is: the alias, or the node's first event.
  var ownRange: SourceRange { alias ?? event.range }
  /// An empty plain scalar: a key written without a value.
  var isEmpty: Bool { event.kind == .scalar && event.plain && event.bytes.count == 0 }
  /// Empty, or a plain null of the YAML 1.2 core schema (`~`, `null`, `Null`,
  /// `NULL`): how a sequence or mapping field may be written absent.
  var isAbsentCollection: Bool {
    isEmpty || (event.kind == .scalar && event.plain && CoreScalar(plain: event.bytes) == .null)
  }
}

/// Reads a group-definition file's events by the outline schema (PROTOCOL
/// §3) in one pass, by recursive descent, and sends what it finds to an
/// ``OutlineSink`` as it goes; it collects every diagnostic it can.
///
/// Scalars are typed by the field they fill, not by YAML guessing: a string
/// field keeps the text as written, a boolean takes only plain `true` or
/// `false`, a number only a plain core-schema number. Aliases are followed
/// by replaying the anchored node; ``EventStream`` has already bounded their
/// expanded size and depth. A node reached again through an alias is
/// diagnosed once.
///
/// The sink is held as an existential, not as a generic parameter: a sink
/// type from another module would otherwise run this reader unspecialized,
/// looking up generic metadata on every event.
struct StreamReader {
  var events: EventStream
  var sink: any OutlineSink
  /// Diagnostics of the schema, in the order found.
  var diagnostics: [Diagnostic] = []
  /// Whether a document (a root node) was read.
  private(set) var sawDocument = false
  private var ids: Set<String> = []
  /// Nodes already diagnosed, so that one reached again through an alias is not.
  private var reported: Set<Int> = []

  init(events: EventStream, sink: any OutlineSink) {
    self.events = events
    self.sink = sink
  }

  // MARK: Entry

  /// Reads the whole stream: the document, then checks that no second one follows.
  mutating func read() throws(BuildStop) {
    while true {
      let e = try events.next()
      switch e.kind {
      case .streamEnd, .documentStart:
        return
      default:
        sawDocument = true
        try document(head(e))
      }
    }
  }

  /// Reads the root node.
  private mutating func document(_ root: Head) throws(BuildStop) {
    if root.isEmpty {
      error(root.event.range, "empty", "the file is empty: expected a mapping with \"groups\"")
      return
    }
    guard root.event.kind == .mappingStart else {
      let found = describe(root)
      let token = try skip(root).token
      error(token, "not-a-mapping", "the top level must be a mapping, found \(found)")
      return
    }
    try forEachField(root, TopKey.self) { reader, key, value throws(BuildStop) in
      switch key {
      case .title: if let t = try reader.string(value, "title") { reader.sink.setTitle(t) }
      case .expansion:
        if let e = try reader.enumeration(value, "expansion", ExpansionPolicy.self) { reader.sink.setExpansion(e) }
      case .layout: reader.sink.setLayout(try reader.layout(value))
      case .groups:
        try reader.items(value, "groups") { reader, item, alias throws(BuildStop) in
          try reader.group(item, via: alias, parent: nil)
        }
      }
    }
  }

  // MARK: Items

  private mutating func group(_ h: Head, via alias: SourceRange?, parent: Int?) throws(BuildStop) {
    guard try isItem(h, "group") else { return }
    var spec = GroupSpec(title: "", source: .zero)
    var handle = 0
    var hasTitle = false
    // Where a diagnostic about the whole item points: its first token, or the alias.
    var token = SourceRange.zero
    let end = try forEachField(
      h, GroupKey.self,
      start: { reader, first in
        token = alias ?? first
        handle = reader.sink.beginGroup(parent: parent, source: token)
      }
    ) { reader, key, value throws(BuildStop) in
      switch key {
      case .id: spec.id = try reader.id(value, via: alias)
      case .title:
        if let t = try reader.string(value, "title") {
          spec.title = t
          hasTitle = true
        }
      case .expanded: spec.expanded = try reader.bool(value, "expanded")
      case .badge: spec.badge = try reader.string(value, "badge")
      case .order: spec.order = try reader.enumeration(value, "order", RowOrder.self)
      case .groups:
        try reader.items(value, "groups") { reader, item, itemAlias throws(BuildStop) in
          try reader.group(item, via: itemAlias ?? alias, parent: handle)
        }
      case .rows:
        try reader.items(value, "rows") { reader, item, itemAlias throws(BuildStop) in
          try reader.row(item, via: itemAlias ?? alias, parent: handle)
        }
      }
    }
    if !hasTitle { report(h.event.id, token, "missing-title", "group has no \"title\"") }
    spec.source = alias ?? Self.nodeRange(h.event, end: end)
    sink.endGroup(handle, fields: spec)
  }

  private mutating func row(_ h: Head, via alias: SourceRange?, parent: Int) throws(BuildStop) {
    guard try isItem(h, "row") else { return }
    var spec = RowSpec(title: "", source: .zero)
    var hasTitle = false
    var token = SourceRange.zero
    let end = try forEachField(h, RowKey.self, start: { _, first in token = alias ?? first }) {
      reader, key, value throws(BuildStop) in
      switch key {
      case .id: spec.id = try reader.id(value, via: alias)
      case .title:
        if let t = try reader.string(value, "title") {
          spec.title = t
          hasTitle = true
        }
      case .detail: spec.detail = try reader.string(value, "detail")
      case .icon: spec.icon = try reader.string(value, "icon")
      case .active: if let b = try reader.bool(value, "active") { spec.active = b }
      case .emphasis: if let b = try reader.bool(value, "emphasis") { spec.emphasis = b }
      case .data: spec.data = try reader.opaque(value)
      }
    }
    if !hasTitle { report(h.event.id, token, "missing-title", "row has no \"title\"") }
    spec.source = alias ?? Self.nodeRange(h.event, end: end)
    sink.addRow(spec, parent: parent)
  }

  /// Whether an item is a mapping; if not it is diagnosed and skipped.
  private mutating func isItem(_ h: Head, _ what: String) throws(BuildStop) -> Bool {
    if h.event.kind == .mappingStart { return true }
    let found = describe(h)
    let token = try skip(h).token
    report(h.event.id, token, "type", "\(what) must be a mapping, found \(found)")
    return false
  }

  /// A sequence of items; `read` gets each item and the alias that brought
  /// it or the sequence. Items that fail are left out (and diagnosed).
  private mutating func items(
    _ h: Head, _ field: String, _ read: (inout Self, Head, SourceRange?) throws(BuildStop) -> Void
  ) throws(BuildStop) {
    if h.isAbsentCollection { return }
    guard h.event.kind == .sequenceStart else {
      try mismatch(h, "\"\(field)\" must be a sequence")
      return
    }
    while true {
      let e = try events.next()
      if e.isEnd { return }
      let item = try head(e)
      try read(&self, item, item.alias ?? h.alias)
    }
  }

  // MARK: Mappings

  /// Calls `body` for each known key of the mapping `h`, which must consume
  /// the value it is given; diagnoses duplicate keys (at the second), unknown
  /// keys (a warning) and non-string keys. `start` gets the mapping's token
  /// (see ``skip(_:)``) once its first key is read, before any value.
  /// - Returns: the end mark of the mapping (libyaml's mark of its end event).
  @discardableResult
  private mutating func forEachField<Key: FieldKey>(
    _ h: Head, _: Key.Type, start: (inout Self, SourceRange) -> Void = { _, _ in },
    _ body: (inout Self, Key, Head) throws(BuildStop) -> Void
  ) throws(BuildStop) -> SourcePosition {
    let table = Key.table
    var seen: UInt64 = 0
    var unknown: Set<String> = []
    var first = true
    while true {
      let e = try events.next()
      if e.isEnd {
        if first { start(&self, Self.firstColumn(h.event)) }
        return SourcePosition(line: Int(e.endLine), column: Int(e.endColumn))
      }
      let key = try head(e)
      guard key.event.kind == .scalar else {
        let found = describe(key)
        let (token, whole) = try skip(key)
        if first {
          first = false
          start(&self, Self.mappingToken(h.event, firstChild: key.alias ?? whole))
        }
        report(key.ownID, key.alias ?? token, "type", "a key must be a string, found \(found)")
        try skipValue()
        continue
      }
      if first {
        first = false
        start(&self, Self.mappingToken(h.event, firstChild: key.ownRange))
      }
      let bytes = key.event.bytes
      guard let position = table.firstIndex(where: { Self.equal($0.name, bytes) }) else {
        let name = String(decoding: bytes, as: UTF8.self)
        if !unknown.insert(name).inserted {
          report(key.ownID, key.ownRange, "duplicate-key", "duplicate key \"\(name)\"")
        } else {
          let why =
            name == "<<" ? " (merge keys are a YAML 1.1 extension: write the fields out, or alias the whole item)" : ""
          report(key.ownID, key.ownRange, "unknown-key", "unknown key \"\(name)\"" + why, severity: .warning)
        }
        try skipValue()
        continue
      }
      let bit: UInt64 = 1 << UInt64(position)
      if seen & bit != 0 {
        report(key.ownID, key.ownRange, "duplicate-key", "duplicate key \"\(table[position].key.rawValue)\"")
        try skipValue()
        continue
      }
      seen |= bit
      let value = try head(events.next())
      try body(&self, table[position].key, value)
    }
  }

  private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ name: String) -> Bool {
    var name = name
    return name.withUTF8 { equal($0, bytes) }
  }

  private static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    guard a.count == b.count else { return false }
    for i in 0..<a.count where a[i] != b[i] { return false }
    return true
  }

  private static func equal(_ a: [UInt8], _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    a.withUnsafeBufferPointer { equal($0, b) }
  }

  // MARK: Scalars

  /// A string field: any scalar, its text as written; an empty plain value is absent.
  private mutating func string(_ h: Head, _ field: String) throws(BuildStop) -> String? {
    if h.isEmpty { return nil }
    guard h.event.kind == .scalar else {
      try mismatch(h, "\"\(field)\" must be a string")
      return nil
    }
    return String(decoding: h.event.bytes, as: UTF8.self)
  }

  /// An explicit id: a string, unique among all groups and rows.
  private mutating func id(_ h: Head, via alias: SourceRange?) throws(BuildStop) -> String? {
    guard let id = try string(h, "id") else { return nil }
    if !ids.insert(id).inserted {
      error(alias ?? h.alias ?? h.event.range, "duplicate-id", "duplicate id \"\(id)\"")
    }
    return id
  }

  /// A boolean field: plain lowercase `true` or `false` only.
  private mutating func bool(_ h: Head, _ field: String) throws(BuildStop) -> Bool? {
    if h.isEmpty { return nil }
    if h.event.kind == .scalar, h.event.plain {
      let b = h.event.bytes
      if CoreScalar.equals(b, "true") { return true }
      if CoreScalar.equals(b, "false") { return false }
    }
    try mismatch(h, "\"\(field)\" must be true or false")
    return nil
  }

  /// An enumeration field: a plain or quoted scalar naming one of the cases.
  private mutating func enumeration<E: RawRepresentable & CaseIterable>(
    _ h: Head, _ field: String, _: E.Type
  ) throws(BuildStop) -> E? where E.RawValue == String {
    if h.isEmpty { return nil }
    if h.event.kind == .scalar {
      let b = h.event.bytes
      if let value = E.allCases.first(where: { Self.matches(b, $0.rawValue) }) { return value }
    }
    let names = E.allCases.map(\.rawValue)
    let choices = names.dropLast().joined(separator: ", ") + " or " + names.last!
    try mismatch(h, "\"\(field)\" must be \(choices)")
    return nil
  }

  /// A plain core-schema number that is finite.
  private func number(_ h: Head) -> Double? {
    guard h.event.kind == .scalar, h.event.plain else { return nil }
    switch CoreScalar(plain: h.event.bytes) {
    case .int(let v): return Double(v)
    case .double(let v) where v.isFinite: return v
    default: return nil
    }
  }

  /// A number field with a lower bound (`> minimum` when `strict`, else `>=`).
  private mutating func number(_ h: Head, _ field: String, minimum: Double, strict: Bool = false) throws(BuildStop)
    -> Double?
  {
    if h.isEmpty { return nil }
    if let v = number(h), strict ? v > minimum : v >= minimum, v <= LayoutLimits.maxLength { return v }
    let bound =
      (strict ? "greater than \(format(minimum))" : ">= \(format(minimum))")
      + " and <= \(format(LayoutLimits.maxLength))"
    try mismatch(h, "\"\(field)\" must be a number \(bound)")
    return nil
  }

  /// An integer field that is at least `minimum`.
  private mutating func integer(_ h: Head, _ field: String, minimum: Int) throws(BuildStop) -> Int? {
    if h.isEmpty { return nil }
    if h.event.kind == .scalar, h.event.plain, case .int(let v) = CoreScalar(plain: h.event.bytes),
      LayoutField.accepts(v, minimum: minimum)
    {
      return Int(v)
    }
    try mismatch(h, "\"\(field)\" must be an integer >= \(minimum)")
    return nil
  }

  /// `headerHeight`/`rowHeight`: a number >= 0 or `auto`.
  private mutating func height(_ h: Head, _ field: String) throws(BuildStop) -> HeightSpec? {
    if h.isEmpty { return nil }
    if h.event.kind == .scalar, CoreScalar.equals(h.event.bytes, "auto") { return .auto }
    if let v = number(h), v >= 0, v <= LayoutLimits.maxLength { return .fixed(v) }
    try mismatch(h, "\"\(field)\" must be a number >= 0 or auto")
    return nil
  }

  private func format(_ v: Double) -> String {
    v == Double(Int(v)) ? String(Int(v)) : String(v)
  }

  // MARK: Layout

  /// A file's `layout:`, read through the table of ``LayoutField/all`` that
  /// the server reads `setLayout` through too.
  private mutating func layout(_ h: Head) throws(BuildStop) -> LayoutOverrides {
    var l = LayoutOverrides()
    if h.isAbsentCollection { return l }
    guard h.event.kind == .mappingStart else {
      try mismatch(h, "\"layout\" must be a mapping")
      return l
    }
    try forEachField(h, LayoutKey.self) { reader, key, value throws(BuildStop) in
      try reader.layoutField(key.field, value, into: &l)
    }
    return l
  }

  /// One field of a layout, by its kind.
  private mutating func layoutField(_ field: LayoutField, _ value: Head, into l: inout LayoutOverrides)
    throws(BuildStop)
  {
    let name = field.name
    switch field.kind {
    case .unit: l.unit = try enumeration(value, name, LayoutUnit.self)
    case .length(let path, let minimum, let strict):
      l[keyPath: path] = try number(value, name, minimum: minimum, strict: strict)
    case .integer(let path, let minimum): l[keyPath: path] = try integer(value, name, minimum: minimum)
    case .height(let path): l[keyPath: path] = try height(value, name)
    case .fields:
      if value.isAbsentCollection { return }
      guard value.event.kind == .mappingStart else {
        try mismatch(value, "\"\(name)\" must be a mapping")
        return
      }
      try forEachField(value, PaddingKey.self) { reader, key, value throws(BuildStop) in
        try reader.layoutField(key.field, value, into: &l)
      }
    case .font: l.font = try font(value)
    }
  }

  /// `layout.font`: `{family: [string], size, weight?, style?}` (PROTOCOL
  /// §10). A font without a family list or a size is diagnosed at its mapping
  /// and left out, as are values out of bounds (``FontDescription``).
  private mutating func font(_ h: Head) throws(BuildStop) -> FontDescription? {
    if h.isAbsentCollection { return nil }
    guard h.event.kind == .mappingStart else {
      try mismatch(h, "\"font\" must be a mapping")
      return nil
    }
    var families: [String]? = nil
    var size: Double? = nil
    var weight = 400
    var style = FontStyle.normal
    var valid = true
    var familyGiven = false
    var token = h.event.range
    try forEachField(h, FontKey.self, start: { _, t in token = t }) { reader, key, value throws(BuildStop) in
      switch key {
      case .family:
        familyGiven = !value.isEmpty
        var names: [String] = []
        try reader.items(value, "family") { reader, item, _ throws(BuildStop) in
          if let name = try reader.string(item, "family"), name.contains(where: { !$0.isWhitespace }) {
            names.append(name)
          } else if !item.isEmpty || item.event.kind == .scalar {
            valid = false
            reader.report(item.event.id, item.event.range, "type", "a family must be a non-empty string")
          }
        }
        families = names
      case .size:
        if let v = reader.number(value), FontDescription.acceptsSize(v) {
          size = v
        } else {
          valid = false
          try reader.mismatch(
            value, "\"size\" must be a number greater than 0 and <= \(reader.format(LayoutLimits.maxFontSize))")
        }
      case .weight:
        if value.event.kind == .scalar, value.event.plain, case .int(let v) = CoreScalar(plain: value.event.bytes),
          FontDescription.weights.contains(Int(clamping: v))
        {
          weight = Int(v)
        } else {
          valid = false
          try reader.mismatch(value, "\"weight\" must be an integer from 100 to 900")
        }
      case .style:
        if let s = try reader.enumeration(value, "style", FontStyle.self) { style = s } else { valid = false }
      }
    }
    guard let families, !families.isEmpty else {
      if !familyGiven || valid {
        report(h.event.id, token, "missing-font-family", "\"font\" has no \"family\" (a sequence of family names)")
      }
      return nil
    }
    guard let size else {
      if valid { report(h.event.id, token, "missing-font-size", "\"font\" has no \"size\"") }
      return nil
    }
    return valid ? FontDescription(families: families, size: size, weight: weight, style: style) : nil
  }

  // MARK: Data

  /// Any YAML value, by the YAML 1.2 core schema; mappings keep their order.
  private mutating func opaque(_ h: Head) throws(BuildStop) -> OpaqueValue {
    switch h.event.kind {
    case .sequenceStart:
      var values: [OpaqueValue] = []
      while true {
        let e = try events.next()
        if e.isEnd { return .array(values) }
        values.append(try opaque(head(e)))
      }
    case .mappingStart:
      var pairs: [(key: String, value: OpaqueValue)] = []
      var keys: Set<String> = []
      while true {
        let e = try events.next()
        if e.isEnd { return .object(pairs) }
        let key = try head(e)
        guard key.event.kind == .scalar else {
          let found = describe(key)
          let token = try skip(key).token
          report(key.ownID, key.alias ?? token, "type", "a key in \"data\" must be a scalar, found \(found)")
          try skipValue()
          continue
        }
        let name = String(decoding: key.event.bytes, as: UTF8.self)
        if pairs.count == 16 { keys = Set(pairs.map(\.key)) }
        let duplicate = pairs.count < 16 ? pairs.contains { $0.key == name } : !keys.insert(name).inserted
        if duplicate {
          report(key.ownID, key.ownRange, "duplicate-key", "duplicate key \"\(name)\"")
          try skipValue()
          continue
        }
        pairs.append((name, try opaque(head(events.next()))))
      }
    default:
      let b = h.event.bytes
      guard h.event.plain else { return .string(String(decoding: b, as: UTF8.self)) }
      switch CoreScalar(plain: b) {
      case .null: return .null
      case .bool(let v): return .bool(v)
      case .int(let v): return .int(v)
      case .double(let v): return .double(v)
      case .string: return .string(String(decoding: b, as: UTF8.self))
      }
    }
  }

  // MARK: Helpers

  /// The node that starts with `e`: an alias is followed by replaying its node.
  private mutating func head(_ e: Event) throws(BuildStop) -> Head {
    guard e.kind == .alias else { return Head(event: e, ownID: e.id, alias: nil) }
    events.replay(e)
    return Head(event: try events.next(), ownID: e.id, alias: e.range)
  }

  /// Reads and skips the next node (a value whose key was refused).
  private mutating func skipValue() throws(BuildStop) {
    let e = try events.next()
    // An alias is skipped whole: its node was read when it was anchored.
    if e.kind == .alias { return }
    _ = try skip(Head(event: e, ownID: e.id, alias: nil))
  }

  /// Reads the rest of the node `h` without looking at it.
  ///
  /// - Returns: the node's first token (a scalar whole; for a collection its
  ///   `[`, `{` or `-`, or the first key of a block mapping, which starts
  ///   where the mapping does) and its whole range.
  private mutating func skip(_ h: Head) throws(BuildStop) -> (token: SourceRange, whole: SourceRange) {
    guard h.event.isCollectionStart else { return (h.event.range, h.event.range) }
    var token = Self.firstColumn(h.event)
    var first = true
    while true {
      let e = try events.next()
      if e.isEnd {
        let whole = SourceRange(
          start: h.event.range.start, end: SourcePosition(line: Int(e.endLine), column: Int(e.endColumn)))
        return (token, whole)
      }
      // Aliases are not followed: their node was read where it was anchored.
      let child = e.kind == .alias ? e.range : try skip(Head(event: e, ownID: e.id, alias: nil)).whole
      if first {
        first = false
        if h.event.kind == .mappingStart { token = Self.mappingToken(h.event, firstChild: child) }
      }
    }
  }

  /// Where a node stands in the text: libyaml's start mark of its first
  /// event (a block mapping's first key, a flow mapping's `{`, or its anchor
  /// or tag) to `end`, the end mark of its last (a block mapping ends where
  /// the next token starts, so the blank lines and comments after it are in it).
  private static func nodeRange(_ e: Event, end: SourcePosition) -> SourceRange {
    SourceRange(start: SourcePosition(line: Int(e.startLine), column: Int(e.startColumn)), end: end)
  }

  /// A collection's first column, as a one-character range.
  private static func firstColumn(_ e: Event) -> SourceRange {
    let start = SourcePosition(line: Int(e.startLine), column: Int(e.startColumn))
    return SourceRange(start: start, end: SourcePosition(line: start.line, column: start.column + 1))
  }

  /// A mapping's token: its first key when the mapping starts there (a block
  /// mapping), else its `{`.
  private static func mappingToken(_ e: Event, firstChild: SourceRange) -> SourceRange {
    if firstChild.start == SourcePosition(line: Int(e.startLine), column: Int(e.startColumn)) { return firstChild }
    return firstColumn(e)
  }

  /// Diagnoses a value of the wrong kind (`<what>, found <it>`) and skips it.
  private mutating func mismatch(_ h: Head, _ what: String) throws(BuildStop) {
    let found = describe(h)
    let token = try skip(h).token
    report(h.event.id, token, "type", "\(what), found \(found)")
  }

  /// How a wrong value reads in a message: its text in quotes, or its kind.
  private func describe(_ h: Head) -> String {
    switch h.event.kind {
    case .mappingStart: return "a mapping"
    case .sequenceStart: return "a sequence"
    default:
      if h.isEmpty { return "nothing" }
      var text = String(decoding: h.event.bytes, as: UTF8.self)
      if text.count > 40 { text = String(text.prefix(40)) + "…" }
      return "\"\(text)\""
    }
  }

  private mutating func error(_ range: SourceRange, _ code: String, _ message: String) {
    diagnostics.append(Diagnostic(range: range, severity: .error, code: code, message: message))
  }

  /// Adds a diagnostic the first time only for `node`, so that a node
  /// reached again through an alias is diagnosed once.
  private mutating func report(
    _ node: Int, _ range: SourceRange, _ code: String, _ message: String, severity: Diagnostic.Severity = .error
  ) {
    if !events.placeholders.contains(node), reported.insert(node).inserted {
      diagnostics.append(Diagnostic(range: range, severity: severity, code: code, message: message))
    }
  }
}

// MARK: Fields

private enum TopKey: String, CaseIterable, FieldKey {
  case title, expansion, layout, groups
  static let table = makeTable()
}

private enum GroupKey: String, CaseIterable, FieldKey {
  case id, title, expanded, badge, order, groups, rows
  static let table = makeTable()
}

private enum RowKey: String, CaseIterable, FieldKey {
  case id, title, detail, icon, active, emphasis, data
  static let table = makeTable()
}

/// The keys of `layout:`: the fields of ``LayoutField/all``.
private struct LayoutKey: FieldKey {
  let field: LayoutField
  var rawValue: String { field.name }
  init?(rawValue: String) {
    guard let field = LayoutField.all.first(where: { $0.name == rawValue }) else { return nil }
    self.field = field
  }
  init(_ field: LayoutField) { self.field = field }
  static let allCases = LayoutField.all.map(LayoutKey.init)
  static let table = makeTable()
}

/// The keys of `font:` (PROTOCOL §10).
private enum FontKey: String, CaseIterable, FieldKey {
  case family, size, weight, style
  static let table = makeTable()
}

/// The keys of `padding:`: the fields of ``LayoutField/padding``.
private struct PaddingKey: FieldKey {
  let field: LayoutField
  var rawValue: String { field.name }
  init?(rawValue: String) {
    guard let field = LayoutField.padding.first(where: { $0.name == rawValue }) else { return nil }
    self.field = field
  }
  init(_ field: LayoutField) { self.field = field }
  static let allCases = LayoutField.padding.map(PaddingKey.init)
  static let table = makeTable()
}

/// The keys of one kind of mapping, with their UTF-8 bytes for matching scalars without making Strings.
private protocol FieldKey: RawRepresentable<String>, CaseIterable {
  static var table: [(key: Self, name: [UInt8])] { get }
}

extension FieldKey {
  static func makeTable() -> [(key: Self, name: [UInt8])] {
    allCases.map { ($0, Array($0.rawValue.utf8)) }
  }
}
