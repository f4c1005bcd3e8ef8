import JSONRPC
import OutlineModel

/// `scrollTop` and `viewportHeight`: where the host's viewport is, so that a
/// result can keep the toggled header in place (PROTOCOL §4, §8).
struct Anchor: Sendable {
  /// The host's scroll offset, in the layout's unit.
  var scrollTop: Double?
  /// With `scrollTop`, the returned offset is also clamped to `contentHeight − viewportHeight`.
  var viewportHeight: Double?

  init(_ p: ParamsReader) throws(ResponseError) {
    scrollTop = try p.optionalNumber("scrollTop")
    viewportHeight = try p.optionalNumber("viewportHeight", min: 0)
  }
}
