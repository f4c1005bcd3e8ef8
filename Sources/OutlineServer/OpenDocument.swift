import OutlineModel

/// One open outline: what a `uri` names between `openOutline` and `closeOutline`.
///
/// - Important: owned by the server's worker; never shared across threads.
final class OpenDocument {
  let uri: String
  var state: OutlineState

  init(uri: String, state: OutlineState) {
    self.uri = uri
    self.state = state
  }
}
