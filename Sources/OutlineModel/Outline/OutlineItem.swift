/// One item of an outline: a group's header or a row.
///
/// An ``Outline`` keeps its items in compact arrays and makes this value on
/// demand (``Outline/items``). Items are in document order (preorder: a group, then its
/// subgroups recursively, then its rows), which is also the order of the
/// visible list. Positions in that order are called *item positions*; they
/// differ from visible indexes as soon as a group is collapsed.
public struct OutlineItem: Sendable, Equatable {
  /// `group` (a section header) or `row`.
  public enum Kind: String, Sendable, Equatable {
    /// A group's header.
    case group
    /// A row of a group.
    case row
  }

  /// Whether the item is a group's header or a row.
  public var kind: Kind
  /// Stable id: explicit, or derived from the title path (see ``Outline``).
  public var id: String
  /// The `title:` text, as written.
  public var title: String
  /// Rows only: the `detail:` text, which wraps; `nil` when absent.
  public var detail: String?
  /// Rows only: the `icon:` name the host maps to an image; `nil` when absent.
  public var icon: String?
  /// Groups only.
  public var badge: String?
  /// Rows only (groups are `true`).
  public var active: Bool
  /// Rows only (groups are `false`).
  public var emphasis: Bool
  /// Rows only: the `data:` value, passed to hosts untouched; `nil` when absent.
  public var data: OpaqueValue?
  /// 0 for a top-level group, else the parent's depth + 1.
  public var depth: Int
  /// Item position of the parent group; `nil` for a top-level group.
  public var parent: Int?
  /// One past the last item position of this item's subtree (`position + 1` for a row).
  public var end: Int
  /// Whether this is the last child of its parent, as shown.
  public var isLastChild: Bool
  /// Groups: direct subgroups + direct rows.
  public var childCount: Int
  /// Groups: rows in the whole subtree.
  public var rowCount: Int
  /// Groups: active rows in the whole subtree (the "3" of "3/10").
  public var activeCount: Int
  /// Groups: the file's `expanded:`, if it said.
  public var expandedInFile: Bool?
  /// Where the item's mapping stands in the source: libyaml's start and end
  /// marks of the mapping node (a half-open range), or the alias that
  /// brought the item (its subtree then shares that range).
  public var source: SourceRange

  /// Whether this is a group. In loops over many items, use
  /// ``Outline/isGroup(at:)`` instead: an ``Outline`` makes each item value
  /// (and its strings) on demand, while a field read allocates nothing.
  public var isGroup: Bool { kind == .group }
}
