/// A parsed group-definition file, before it becomes an ``Outline``.
///
/// This is the schema of `schemas/outline.schema.json` as plain Swift values:
/// loaders (YAML, JSON) produce it, ``Outline/init(document:)`` consumes it.
/// Every item keeps the ``SourceRange`` it came from so that later checks
/// (duplicate derived ids, policy conflicts) can point at the input.
public struct OutlineDocument: Sendable, Equatable {
  /// The optional `title:` of the whole outline.
  public var title: String?
  /// `expansion:`; `nil` when the file does not say (the default is ``ExpansionPolicy/multiple``).
  public var expansion: ExpansionPolicy?
  /// `layout:` defaults given by the file; only the fields it names are set.
  public var layout: LayoutOverrides
  /// Top-level groups, in file order.
  public var groups: [GroupSpec]

  /// A document with the given fields; empty by default.
  public init(
    title: String? = nil, expansion: ExpansionPolicy? = nil, layout: LayoutOverrides = LayoutOverrides(),
    groups: [GroupSpec] = []
  ) {
    self.title = title
    self.expansion = expansion
    self.layout = layout
    self.groups = groups
  }
}

/// One `groups:` item of a group-definition file.
public struct GroupSpec: Sendable, Equatable {
  /// Explicit `id:`; `nil` means derived from the title path.
  public var id: String?
  /// `title:` (required by the schema).
  public var title: String
  /// `expanded:`; `nil` when the file does not say (default closed).
  public var expanded: Bool?
  /// `badge:` text shown in the header.
  public var badge: String?
  /// `order:` of this group's rows; `nil` inherits the parent's.
  public var order: RowOrder?
  /// Subgroups, shown before ``rows``.
  public var groups: [GroupSpec]
  /// Rows, in file order.
  public var rows: [RowSpec]
  /// Where the item's mapping stands in the source: libyaml's start and end
  /// marks of the mapping node, or the alias that brought the item.
  public var source: SourceRange

  /// A group with the given fields; the defaults are the schema's.
  public init(
    id: String? = nil, title: String, expanded: Bool? = nil, badge: String? = nil, order: RowOrder? = nil,
    groups: [GroupSpec] = [], rows: [RowSpec] = [], source: SourceRange = .zero
  ) {
    self.id = id
    self.title = title
    self.expanded = expanded
    self.badge = badge
    self.order = order
    self.groups = groups
    self.rows = rows
    self.source = source
  }
}

/// One `rows:` item of a group-definition file.
public struct RowSpec: Sendable, Equatable {
  /// Explicit `id:`; `nil` means derived from the title path.
  public var id: String?
  /// `title:` (required by the schema).
  public var title: String
  /// `detail:`: free text that wraps.
  public var detail: String?
  /// `icon:`: a name the host maps to an image.
  public var icon: String?
  /// `active:` (default `true`); headers count active rows.
  public var active: Bool
  /// `emphasis:` (default `false`).
  public var emphasis: Bool
  /// `data:`, passed to hosts untouched.
  public var data: OpaqueValue?
  /// Where the item's mapping stands in the source: libyaml's start and end
  /// marks of the mapping node, or the alias that brought the item.
  public var source: SourceRange

  /// A row with the given fields; the defaults are the schema's.
  public init(
    id: String? = nil, title: String, detail: String? = nil, icon: String? = nil, active: Bool = true,
    emphasis: Bool = false, data: OpaqueValue? = nil, source: SourceRange = .zero
  ) {
    self.id = id
    self.title = title
    self.detail = detail
    self.icon = icon
    self.active = active
    self.emphasis = emphasis
    self.data = data
    self.source = source
  }
}

/// `expansion:` of a file or `policy` of `openOutline`.
public enum ExpansionPolicy: String, Sendable, Equatable, CaseIterable {
  /// Any number of groups may be open.
  case multiple
  /// At most one open group among siblings: opening one closes the others (an accordion).
  case single
}

/// `order:` of a group's rows.
public enum RowOrder: String, Sendable, Equatable, CaseIterable {
  /// File order (the default).
  case file
  /// Active rows first, then inactive ones; stable.
  case activeFirst
  /// By title, as `localizedStandardCompare`; stable.
  case title
}

/// A value passed through to hosts untouched (the `data:` field).
///
/// Scalars follow the YAML 1.2 core schema. Mappings keep their key order.
public indirect enum OpaqueValue: Sendable, Equatable {
  /// `null` (also `Null`, `NULL`), `~` or an empty plain scalar (YAML 1.2 core schema).
  case null
  /// `true` or `false` (YAML 1.2 core schema: also `True`, `TRUE`, `False`, `FALSE`).
  case bool(Bool)
  /// An integer that fits in `Int64`: decimal, `0o` octal or `0x` hex (YAML 1.2 core schema).
  case int(Int64)
  /// Any other number of the core schema, `.inf` and `.nan` included.
  case double(Double)
  /// Any other scalar, and every one written quoted, as a block or tagged `!!str`.
  case string(String)
  /// A sequence, in order.
  case array([OpaqueValue])
  /// A mapping, in file order.
  case object([(key: String, value: OpaqueValue)])

  /// Structural equality; mappings compare in order, so the same pairs in another order differ.
  public static func == (lhs: OpaqueValue, rhs: OpaqueValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): return true
    case (.bool(let a), .bool(let b)): return a == b
    case (.int(let a), .int(let b)): return a == b
    case (.double(let a), .double(let b)): return a == b
    case (.string(let a), .string(let b)): return a == b
    case (.array(let a), .array(let b)): return a == b
    case (.object(let a), .object(let b)):
      return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    default: return false
    }
  }
}
