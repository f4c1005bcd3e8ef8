import Foundation
import OutlineModel
import OutlineYAML
import Testing

@testable import OutlineServer

/// The seed's case: an accordion of multi-paragraph answers whose rows are as
/// tall as a browser draws them at the screen width less 40 px
/// (examples/faq-font.yaml: Noto Sans 14 px, 20 px lines, 12 px padding above
/// and below, 20 px on each side).
@Suite struct FontExampleTests {
  /// Row heights Chromium 156 gives: each title and detail laid out in a `div`
  /// styled `white-space: pre-wrap; overflow-wrap: anywhere; font: 14px/20px
  /// "Noto Sans", "Noto Sans CJK SC", "Noto Color Emoji"` at 335 px (a 375 px
  /// screen) and 280 px (320 px), its lines counted from its height; a row is
  /// 24 px of padding and 20 px per line.
  static let chromium: [Double: [String: Double]] = [
    375: [
      "change-password": 244, "two-factor": 184, "delete-account": 164, "quiet-hours": 144, "digest": 104,
      "chinese": 144, "japanese": 124,
    ],
    320: [
      "change-password": 284, "two-factor": 224, "delete-account": 184, "quiet-hours": 184, "digest": 104,
      "chinese": 164, "japanese": 144,
    ],
  ]

  @Test func rowsAreAsTallAsTheBrowserDrawsThem() throws {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("examples/faq-font.yaml")
    let outline = try #require(try OutlineLoader.loadOutline(.bytes([UInt8](Data(contentsOf: path)))).outline)
    var state = OutlineState(outline: outline, lineBreakers: OutlineServer.makeLineBreakers())
    for (screen, heights) in Self.chromium.sorted(by: { $0.key > $1.key }) {
      var layout = LayoutOverrides()
      layout.width = screen
      state.setLayout(layout)
      for (id, height) in heights {
        let p = try #require(outline.position(of: id))
        #expect(state.height(p) == height, "\(id) at \(screen) px")
      }
    }
    #expect(state.height(try #require(outline.position(of: "account"))) == 44)
  }
}
