import JSONRPC
import OutlineModel

/// The JSON of what a row shows that depends on the outline's items alone —
/// `id, kind, depth, parent, title`, a group's `badge, childCount, rowCount,
/// activeCount`, a row's `detail, icon, data, active, emphasis` — kept per
/// item once written, so that a row served again (a pane scrolls back, or
/// fetches the rows a toggle inserted) is a copy of those bytes plus its
/// `index`, `top`, `height`, `isLastChild` and `expanded`, which depend on the
/// view.
///
/// The cache follows its outline: a new outline (another
/// ``OutlineModel/Outline/identity``) empties it. It holds at most
/// ``maxBytes`` of JSON and starts afresh when full.
///
/// - Important: owned by one ``OpenDocument``; used on the connection's worker only.
final class RowJSONCache {
  /// The most bytes of JSON kept.
  static let maxBytes = 16 << 20

  /// The outline the fragments were written from.
  private var identity: ObjectIdentifier?
  /// Every fragment, one after the other: the members of a row, without braces.
  private var bytes: [UInt8] = []
  /// Item position → where its fragment is in `bytes`.
  private var fragments: [Int32: (start: Int32, count: Int32)] = [:]

  /// Calls `body` with the static members of the item at `position` of
  /// `outline`, writing them first when they are not kept yet.
  /// - Complexity: O(1) for a fragment kept; else O(the item's texts).
  func withMembers<R>(of position: Int, in outline: Outline, _ body: (UnsafeRawBufferPointer) -> R) -> R {
    if identity != outline.identity {
      identity = outline.identity
      clear()
    }
    if let f = fragments[Int32(position)] {
      return bytes.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[Int(f.start)..<Int(f.start + f.count)])) }
    }
    var json = JSONWriter(capacity: 256)
    json.object { json in Self.writeMembers(position, outline, to: &json) }
    return json.withUnsafeBytes { object in
      // The object less its braces: the members.
      let members = UnsafeRawBufferPointer(rebasing: object[1..<(object.count - 1)])
      if bytes.count + members.count > Self.maxBytes { clear() }
      fragments[Int32(position)] = (Int32(bytes.count), Int32(members.count))
      bytes.append(contentsOf: members)
      return body(members)
    }
  }

  private func clear() {
    bytes.removeAll(keepingCapacity: true)
    fragments.removeAll(keepingCapacity: true)
  }

  /// The members of a Row (PROTOCOL §4) that depend on the item alone; texts
  /// are written from the outline's UTF-8 storage.
  static func writeMembers(_ p: Int, _ outline: Outline, to json: inout JSONWriter) {
    let isGroup = outline.isGroup(at: p)
    json.key("id")
    outline.withIDUTF8(at: p) { json.value(utf8: $0) }
    json.key("kind")
    if isGroup { json.value(plain: "group") } else { json.value(plain: "row") }
    json.member("depth", outline.depth(at: p))
    json.key("parent")
    if let parent = outline.parent(at: p) {
      outline.withIDUTF8(at: parent) { json.value(utf8: $0) }
    } else {
      json.null()
    }
    json.key("title")
    outline.withTitleUTF8(at: p) { json.value(utf8: $0) }
    if isGroup {
      outline.withIconOrBadgeUTF8(at: p) { badge in
        if let badge {
          json.key("badge")
          json.value(utf8: badge)
        }
      }
      json.member("childCount", outline.childCount(at: p))
      json.member("rowCount", outline.rowCount(at: p))
      json.member("activeCount", outline.activeCount(at: p))
    } else {
      outline.withDetailUTF8(at: p) { detail in
        if let detail {
          json.key("detail")
          json.value(utf8: detail)
        }
      }
      outline.withIconOrBadgeUTF8(at: p) { icon in
        if let icon {
          json.key("icon")
          json.value(utf8: icon)
        }
      }
      if let data = outline.data(at: p) { json.member("data", data) }
      json.member("active", outline.active(at: p))
      json.member("emphasis", outline.emphasis(at: p))
    }
  }
}
