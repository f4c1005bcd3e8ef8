/// An ``OutlineSink`` that builds an ``OutlineDocument``: it rebuilds the
/// nested ``GroupSpec``/``RowSpec`` tree from the flat calls of a loader.
///
/// Groups nest strictly (a group ends before its parent does), so the open
/// groups form a stack and a group's handle is its depth in it (0 for a
/// top-level group). A group's children are gathered while it is open and
/// joined to its own fields when it ends; a finished group is added to its
/// parent, or to ``document``'s groups at the top level. Calls out of that
/// order (a handle that is not the innermost open group) are a programming
/// error and trap.
public struct DocumentBuilder: OutlineSink {
  /// The document built so far; complete once the loader returned without error.
  public private(set) var document = OutlineDocument()
  /// The open groups, outermost first: their children so far.
  private var open: [(groups: [GroupSpec], rows: [RowSpec])] = []

  /// An empty document.
  public init() {}

  /// Sets the document's `title:`.
  public mutating func setTitle(_ title: String) { document.title = title }

  /// Sets the document's `expansion:`.
  public mutating func setExpansion(_ policy: ExpansionPolicy) { document.expansion = policy }

  /// Sets the document's `layout:`.
  public mutating func setLayout(_ layout: LayoutOverrides) { document.layout = layout }

  /// Opens a group inside `parent` (the innermost open group, or `nil` at the
  /// top level); `source` comes back with ``endGroup(_:fields:)``'s fields.
  /// - Returns: the group's depth among the open groups.
  public mutating func beginGroup(parent: Int?, source: SourceRange) -> Int {
    precondition(parent == (open.isEmpty ? nil : open.count - 1), "a group must start inside the innermost open group")
    open.append(([], []))
    return open.count - 1
  }

  /// Adds a row to the open group `parent` (the innermost).
  public mutating func addRow(_ row: RowSpec, parent: Int) {
    precondition(parent == open.count - 1, "a row must belong to the innermost open group")
    open[parent].rows.append(row)
  }

  /// Closes the innermost open group `group`: `fields` with the children
  /// gathered since ``beginGroup(parent:source:)`` goes to its parent.
  public mutating func endGroup(_ group: Int, fields: GroupSpec) {
    precondition(group == open.count - 1, "the group that ends must be the innermost open group")
    let children = open.removeLast()
    var spec = fields
    spec.groups = children.groups
    spec.rows = children.rows
    if open.isEmpty {
      document.groups.append(spec)
    } else {
      open[open.count - 1].groups.append(spec)
    }
  }
}
