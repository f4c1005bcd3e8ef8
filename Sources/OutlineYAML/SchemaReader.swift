import OutlineModel

/// Reads a ``NodeTree`` by the outline schema (PROTOCOL §3) into an
/// ``OutlineDocument``, collecting every diagnostic it can.
///
/// Scalars are typed by the field they fill, not by YAML guessing: a string
/// field keeps the text as written, a boolean takes only plain `true` or
/// `false`, a number only a plain core-schema number. Aliases are followed;
/// the tree builder has already bounded their expanded size and depth.
struct SchemaReader {
  let nodes: [Node]
  let arena: UnsafeBufferPointer<UInt8>
  var diagnostics: [Diagnostic] = []
  private var ids = ScalarSet()
  /// Diagnostics already given for a node reached again through an alias.
  private var reported: Set<Int> = []

  /// - Parameter diagnosed: nodes already diagnosed (stand-ins for bad aliases).
  init(nodes: [Node], arena: UnsafeBufferPointer<UInt8>, diagnosed: [Int] = []) {
    self.nodes = nodes
    self.arena = arena
    self.reported = Set(diagnosed)
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

  private enum LayoutKey: String, CaseIterable, FieldKey {
    case unit, width, narrowWidth, wideWidth, lineHeight, headerHeight, rowHeight, indent, padding, maxLines, tabSize
    static let table = makeTable()
  }

  private enum PaddingKey: String, CaseIterable, FieldKey {
    case top, bottom, left, right
    static let table = makeTable()
  }

  // MARK: Entry

  /// Reads the root node; `nil` when it is not a usable mapping (diagnosed).
  mutating func document(root: Int) -> OutlineDocument? {
    let node = nodes[root]
    if node.kind == .scalar, node.plain, node.count == 0 {
      error(node.range, "empty", "the file is empty: expected a mapping with \"groups\"")
      return nil
    }
    guard node.kind == .mapping else {
      error(token(root), "not-a-mapping", "the top level must be a mapping, found \(describe(root))")
      return nil
    }
    var doc = OutlineDocument()
    forEachField(root, TopKey.self) { reader, key, value in
      switch key {
      case .title: doc.title = reader.string(value, "title")
      case .expansion: doc.expansion = reader.enumeration(value, "expansion", ExpansionPolicy.self)
      case .layout: doc.layout = reader.layout(value)
      case .groups: doc.groups = reader.items(value, "groups") { $0.group($1, via: $2) }
      }
    }
    return doc
  }

  // MARK: Items

  private mutating func group(_ index: Int, via alias: Int?) -> GroupSpec? {
    guard let source = itemSource(index, via: alias, "group") else { return nil }
    var spec = GroupSpec(title: "", source: source)
    var hasTitle = false
    forEachField(index, GroupKey.self) { reader, key, value in
      switch key {
      case .id: spec.id = reader.id(value, via: alias)
      case .title:
        if let t = reader.string(value, "title") {
          spec.title = t
          hasTitle = true
        }
      case .expanded: spec.expanded = reader.bool(value, "expanded")
      case .badge: spec.badge = reader.string(value, "badge")
      case .order: spec.order = reader.enumeration(value, "order", RowOrder.self)
      case .groups: spec.groups = reader.items(value, "groups") { $0.group($1, via: $2 ?? alias) }
      case .rows: spec.rows = reader.items(value, "rows") { $0.row($1, via: $2 ?? alias) }
      }
    }
    if !hasTitle { report(index, source, "missing-title", "group has no \"title\"") }
    return spec
  }

  private mutating func row(_ index: Int, via alias: Int?) -> RowSpec? {
    guard let source = itemSource(index, via: alias, "row") else { return nil }
    var spec = RowSpec(title: "", source: source)
    var hasTitle = false
    forEachField(index, RowKey.self) { reader, key, value in
      switch key {
      case .id: spec.id = reader.id(value, via: alias)
      case .title:
        if let t = reader.string(value, "title") {
          spec.title = t
          hasTitle = true
        }
      case .detail: spec.detail = reader.string(value, "detail")
      case .icon: spec.icon = reader.string(value, "icon")
      case .active: if let b = reader.bool(value, "active") { spec.active = b }
      case .emphasis: if let b = reader.bool(value, "emphasis") { spec.emphasis = b }
      case .data: spec.data = reader.opaque(value)
      }
    }
    if !hasTitle { report(index, source, "missing-title", "row has no \"title\"") }
    return spec
  }

  /// The range an item is known by: the alias that brought it, or its first
  /// token (`{`, or the first key of a block mapping). `nil` when it is not a mapping.
  private mutating func itemSource(_ index: Int, via alias: Int?, _ what: String) -> SourceRange? {
    let node = nodes[index]
    guard node.kind == .mapping else {
      report(index, token(index), "type", "\(what) must be a mapping, found \(describe(index))")
      return nil
    }
    if let alias { return nodes[alias].range }
    return token(index)
  }

  /// A sequence of items; items that fail are left out (and diagnosed).
  private mutating func items<T>(
    _ index: Int, _ field: String, _ read: (inout SchemaReader, Int, Int?) -> T?
  ) -> [T] {
    let (node, alias) = resolve(index)
    if isEmpty(node) { return [] }
    guard nodes[node].kind == .sequence else {
      report(node, token(node), "type", "\"\(field)\" must be a sequence, found \(describe(node))")
      return []
    }
    var result: [T] = []
    result.reserveCapacity(Int(nodes[node].count))
    var child = node + 1
    let end = nodes[node].link
    while child < end {
      let (item, itemAlias) = resolve(child)
      if let value = read(&self, item, itemAlias ?? alias) { result.append(value) }
      child = nodes[child].next(after: child)
    }
    return result
  }

  // MARK: Mappings

  /// Calls `body` for each known key of the mapping at `index`, diagnosing
  /// duplicate keys (at the second), unknown keys (a warning) and non-string keys.
  private mutating func forEachField<Key: FieldKey>(
    _ index: Int, _: Key.Type, _ body: (inout SchemaReader, Key, Int) -> Void
  ) {
    let table = Key.table
    var seen: UInt64 = 0
    var unknown: Set<String> = []
    var child = index + 1
    let end = nodes[index].link
    while child < end {
      let keyIndex = child
      let valueIndex = nodes[child].next(after: child)
      child = nodes[valueIndex].next(after: valueIndex)
      let (key, _) = resolve(keyIndex)
      guard nodes[key].kind == .scalar else {
        report(keyIndex, token(keyIndex), "type", "a key must be a string, found \(describe(key))")
        continue
      }
      let bytes = scalar(key)
      guard let position = table.firstIndex(where: { Self.equal($0.name, bytes) }) else {
        let name = String(decoding: bytes, as: UTF8.self)
        if !unknown.insert(name).inserted {
          report(keyIndex, token(keyIndex), "duplicate-key", "duplicate key \"\(name)\"")
        } else {
          let why =
            name == "<<" ? " (merge keys are a YAML 1.1 extension: write the fields out, or alias the whole item)" : ""
          report(keyIndex, token(keyIndex), "unknown-key", "unknown key \"\(name)\"" + why, severity: .warning)
        }
        continue
      }
      let bit: UInt64 = 1 << UInt64(position)
      if seen & bit != 0 {
        report(keyIndex, token(keyIndex), "duplicate-key", "duplicate key \"\(table[position].key.rawValue)\"")
        continue
      }
      seen |= bit
      body(&self, table[position].key, valueIndex)
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
  private mutating func string(_ index: Int, _ field: String) -> String? {
    let (node, _) = resolve(index)
    if isEmpty(node) { return nil }
    guard nodes[node].kind == .scalar else {
      report(node, token(node), "type", "\"\(field)\" must be a string, found \(describe(node))")
      return nil
    }
    return String(decoding: scalar(node), as: UTF8.self)
  }

  /// An explicit id: a string, unique among all groups and rows.
  private mutating func id(_ index: Int, via alias: Int?) -> String? {
    guard let id = string(index, "id") else { return nil }
    let (node, valueAlias) = resolve(index)
    if !ids.insert(node, nodes: nodes, arena: arena) {
      let at = alias ?? valueAlias ?? node
      error(nodes[at].range, "duplicate-id", "duplicate id \"\(id)\"")
    }
    return id
  }

  /// A boolean field: plain lowercase `true` or `false` only.
  private mutating func bool(_ index: Int, _ field: String) -> Bool? {
    let (node, _) = resolve(index)
    if isEmpty(node) { return nil }
    let n = nodes[node]
    if n.kind == .scalar, n.plain {
      let b = scalar(node)
      if CoreScalar.equals(b, "true") { return true }
      if CoreScalar.equals(b, "false") { return false }
    }
    report(node, token(node), "type", "\"\(field)\" must be true or false, found \(describe(node))")
    return nil
  }

  /// An enumeration field: a plain or quoted scalar naming one of the cases.
  private mutating func enumeration<E: RawRepresentable & CaseIterable>(
    _ index: Int, _ field: String, _: E.Type
  ) -> E? where E.RawValue == String {
    let (node, _) = resolve(index)
    if isEmpty(node) { return nil }
    if nodes[node].kind == .scalar {
      let b = scalar(node)
      if let value = E.allCases.first(where: { Self.matches(b, $0.rawValue) }) { return value }
    }
    let names = E.allCases.map(\.rawValue)
    let choices = names.dropLast().joined(separator: ", ") + " or " + names.last!
    report(node, token(node), "type", "\"\(field)\" must be \(choices), found \(describe(node))")
    return nil
  }

  /// A plain core-schema number that is finite.
  private func number(_ node: Int) -> Double? {
    let n = nodes[node]
    guard n.kind == .scalar, n.plain else { return nil }
    switch CoreScalar(plain: scalar(node)) {
    case .int(let v): return Double(v)
    case .double(let v) where v.isFinite: return v
    default: return nil
    }
  }

  /// A number field with a lower bound (`> minimum` when `strict`, else `>=`).
  private mutating func number(_ index: Int, _ field: String, minimum: Double, strict: Bool = false) -> Double? {
    let (node, _) = resolve(index)
    if isEmpty(node) { return nil }
    if let v = number(node), strict ? v > minimum : v >= minimum, v <= LayoutLimits.maxLength { return v }
    let bound =
      (strict ? "greater than \(format(minimum))" : ">= \(format(minimum))")
      + " and <= \(format(LayoutLimits.maxLength))"
    report(node, token(node), "type", "\"\(field)\" must be a number \(bound), found \(describe(node))")
    return nil
  }

  /// An integer field that is at least `minimum`.
  private mutating func integer(_ index: Int, _ field: String, minimum: Int) -> Int? {
    let (node, _) = resolve(index)
    if isEmpty(node) { return nil }
    if nodes[node].kind == .scalar, nodes[node].plain, case .int(let v) = CoreScalar(plain: scalar(node)),
      v >= minimum, v <= Int32.max
    {
      return Int(v)
    }
    report(node, token(node), "type", "\"\(field)\" must be an integer >= \(minimum), found \(describe(node))")
    return nil
  }

  /// `headerHeight`/`rowHeight`: a number >= 0 or `auto`.
  private mutating func height(_ index: Int, _ field: String) -> HeightSpec? {
    let (node, _) = resolve(index)
    if isEmpty(node) { return nil }
    if nodes[node].kind == .scalar, CoreScalar.equals(scalar(node), "auto") { return .auto }
    if let v = number(node), v >= 0, v <= LayoutLimits.maxLength { return .fixed(v) }
    report(node, token(node), "type", "\"\(field)\" must be a number >= 0 or auto, found \(describe(node))")
    return nil
  }

  private func format(_ v: Double) -> String {
    v == Double(Int(v)) ? String(Int(v)) : String(v)
  }

  // MARK: Layout

  private mutating func layout(_ index: Int) -> LayoutOverrides {
    var l = LayoutOverrides()
    let (node, _) = resolve(index)
    if isEmpty(node) { return l }
    guard nodes[node].kind == .mapping else {
      report(node, token(node), "type", "\"layout\" must be a mapping, found \(describe(node))")
      return l
    }
    forEachField(node, LayoutKey.self) { reader, key, value in
      let name = key.rawValue
      switch key {
      case .unit: l.unit = reader.enumeration(value, name, LayoutUnit.self)
      case .width: l.width = reader.number(value, name, minimum: 0, strict: true)
      case .narrowWidth: l.narrowWidth = reader.number(value, name, minimum: 0)
      case .wideWidth: l.wideWidth = reader.number(value, name, minimum: 0)
      case .lineHeight: l.lineHeight = reader.number(value, name, minimum: 0)
      case .headerHeight: l.headerHeight = reader.height(value, name)
      case .rowHeight: l.rowHeight = reader.height(value, name)
      case .indent: l.indent = reader.number(value, name, minimum: 0)
      case .maxLines: l.maxLines = reader.integer(value, name, minimum: 1)
      case .tabSize: l.tabSize = reader.integer(value, name, minimum: 1)
      case .padding: reader.padding(value, into: &l)
      }
    }
    return l
  }

  private mutating func padding(_ index: Int, into l: inout LayoutOverrides) {
    let (node, _) = resolve(index)
    if isEmpty(node) { return }
    guard nodes[node].kind == .mapping else {
      report(node, token(node), "type", "\"padding\" must be a mapping, found \(describe(node))")
      return
    }
    forEachField(node, PaddingKey.self) { reader, key, value in
      let v = reader.number(value, key.rawValue, minimum: 0)
      switch key {
      case .top: l.paddingTop = v
      case .bottom: l.paddingBottom = v
      case .left: l.paddingLeft = v
      case .right: l.paddingRight = v
      }
    }
  }

  // MARK: Data

  /// Any YAML value, by the YAML 1.2 core schema; mappings keep their order.
  private mutating func opaque(_ index: Int) -> OpaqueValue {
    let (node, _) = resolve(index)
    let n = nodes[node]
    switch n.kind {
    case .scalar:
      let b = scalar(node)
      guard n.plain else { return .string(String(decoding: b, as: UTF8.self)) }
      switch CoreScalar(plain: b) {
      case .null: return .null
      case .bool(let v): return .bool(v)
      case .int(let v): return .int(v)
      case .double(let v): return .double(v)
      case .string: return .string(String(decoding: b, as: UTF8.self))
      }
    case .sequence:
      var values: [OpaqueValue] = []
      values.reserveCapacity(Int(n.count))
      var child = node + 1
      while child < n.link {
        values.append(opaque(child))
        child = nodes[child].next(after: child)
      }
      return .array(values)
    case .mapping:
      var pairs: [(key: String, value: OpaqueValue)] = []
      pairs.reserveCapacity(Int(n.count) / 2)
      var keys: Set<String> = []
      var child = node + 1
      while child < n.link {
        let keyIndex = child
        let valueIndex = nodes[child].next(after: child)
        child = nodes[valueIndex].next(after: valueIndex)
        let (key, _) = resolve(keyIndex)
        guard nodes[key].kind == .scalar else {
          report(keyIndex, token(keyIndex), "type", "a key in \"data\" must be a scalar, found \(describe(key))")
          continue
        }
        let name = String(decoding: scalar(key), as: UTF8.self)
        let duplicate =
          n.count <= 32 ? pairs.contains { $0.key == name } : (n.count > 2 && !keys.insert(name).inserted)
        if duplicate {
          report(keyIndex, token(keyIndex), "duplicate-key", "duplicate key \"\(name)\"")
          continue
        }
        pairs.append((name, opaque(valueIndex)))
      }
      return .object(pairs)
    case .alias:
      return .null  // Unreachable: `resolve` follows aliases.
    }
  }

  // MARK: Helpers

  /// Follows an alias: the node it stands for, and the alias itself if any.
  private func resolve(_ index: Int) -> (node: Int, alias: Int?) {
    let n = nodes[index]
    return n.kind == .alias ? (n.link, index) : (index, nil)
  }

  /// The range of a node's first token: a scalar or alias whole; for a
  /// collection its `[`, `{` or `-`, or the first key of a block mapping.
  private func token(_ index: Int) -> SourceRange {
    let n = nodes[index]
    switch n.kind {
    case .scalar, .alias:
      return n.range
    case .sequence, .mapping:
      if n.kind == .mapping, n.count > 0, nodes[index + 1].startLine == n.startLine,
        nodes[index + 1].startColumn == n.startColumn
      {
        return nodes[index + 1].range
      }
      let start = SourcePosition(line: Int(n.startLine), column: Int(n.startColumn))
      return SourceRange(start: start, end: SourcePosition(line: start.line, column: start.column + 1))
    }
  }

  /// An empty plain scalar: a key written without a value.
  private func isEmpty(_ node: Int) -> Bool {
    let n = nodes[node]
    return n.kind == .scalar && n.plain && n.count == 0
  }

  private func scalar(_ node: Int) -> UnsafeBufferPointer<UInt8> {
    let n = nodes[node]
    return UnsafeBufferPointer(rebasing: arena[n.link..<n.link + Int(n.count)])
  }

  /// How a wrong value reads in a message: its text in quotes, or its kind.
  private func describe(_ node: Int) -> String {
    let n = nodes[node]
    switch n.kind {
    case .mapping: return "a mapping"
    case .sequence: return "a sequence"
    case .alias: return "an alias"
    case .scalar:
      if n.plain, n.count == 0 { return "nothing" }
      var text = String(decoding: scalar(node), as: UTF8.self)
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
    if reported.insert(node).inserted {
      diagnostics.append(Diagnostic(range: range, severity: severity, code: code, message: message))
    }
  }
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
