import OutlineModel

/// One open outline: what a `uri` names between `openOutline` and `closeOutline`.
///
/// - Important: owned by the server's worker; never shared across threads.
final class OpenDocument {
  let uri: String
  var state: OutlineState
  /// The real path of a `file:` outline, the key of its saved view state.
  let path: String?
  /// The file a `file:` outline's uri names, as named: read, stamped and watched
  /// through it, so a symlink moved to another file is followed (`nil` for text
  /// sent by the host).
  let filePath: String?
  /// The height of the last `visibleRows` viewport: the page of `pageUp`/`pageDown`.
  var viewportHeight: Double?
  /// The JSON of its rows' item fields, kept between `visibleRows` answers.
  let rowJSON = RowJSONCache()
  /// Whether the view state changed since it was last saved.
  var viewStateDirty = false
  /// The text as the server keeps it (PROTOCOL §9): what `edits` apply to,
  /// and what `range`s and positions are counted in.
  var text: DocumentText
  /// The stamp of the file when it was last read (opened or reloaded from
  /// disk), `nil` for an outline whose text the host sent: a watcher firing
  /// for a file as it was already read has nothing to reload.
  var fileStamp: RegularFile.Stamp?
  /// Whether the file is watched (`watch: true`).
  var watched = false

  init(uri: String, state: OutlineState, path: String?, filePath: String? = nil, text: DocumentText) {
    self.uri = uri
    self.state = state
    self.path = path
    self.filePath = filePath
    self.text = text
    if case .file(_, let stamp) = text { fileStamp = stamp }
  }

  /// The user's view state, as saved between sessions.
  var savedViewState: SavedViewState? {
    guard let path else { return nil }
    let byID = state.expansionByID
    return SavedViewState(
      path: path, expanded: byID.filter(\.value).keys.sorted(), collapsed: byID.filter { !$0.value }.keys.sorted(),
      focus: state.focus.map { state.outline.id(at: $0) }, scrollTop: state.scrollTop)
  }
}
