/// Receives a group-definition file's content while a loader reads it, so that
/// a big file becomes an outline without an intermediate tree.
///
/// Calls come in file order. A group is opened with
/// ``beginGroup(parent:source:)`` before its children arrive and closed with
/// ``endGroup(_:fields:)`` once its mapping ends, because its `title:`,
/// `id:`, `order:` … may follow its `groups:` or `rows:` in the file. Rows
/// arrive whole with ``addRow(_:parent:)``. A group reached twice (through a
/// YAML alias) is sent twice, with two handles.
///
/// The loader validates; a sink only stores. When the loader finds an error
/// the sink's content is incomplete and must be dropped.
public protocol OutlineSink {
  /// An empty sink. A read that has to start over (a loader rereading a
  /// rewritten text) starts again from one.
  init()
  /// The outline's `title:`.
  mutating func setTitle(_ title: String)
  /// The file's `expansion:`.
  mutating func setExpansion(_ policy: ExpansionPolicy)
  /// The file's `layout:` (only the fields it names are set).
  mutating func setLayout(_ layout: LayoutOverrides)
  /// A group starts.
  /// - Parameters:
  ///   - parent: the handle of the enclosing group; `nil` for a top-level group.
  ///   - source: where the group starts in the source (its first token, or the alias that brought
  ///     it); its whole range comes with ``endGroup(_:fields:)``.
  /// - Returns: the group's handle, chosen by the sink, for ``endGroup(_:fields:)`` and its children.
  mutating func beginGroup(parent: Int?, source: SourceRange) -> Int
  /// A row of the open group `parent`; `row.source` is set (its mapping's range).
  mutating func addRow(_ row: RowSpec, parent: Int)
  /// The group `group` ends; `fields` has its own fields and `source`, its
  /// mapping's whole range (its `groups` and `rows` are empty: they were sent before).
  mutating func endGroup(_ group: Int, fields: GroupSpec)
}
