import JSONRPC
import OutlineModel
import OutlineTestSupport
import OutlineYAML
import Testing

@testable import OutlineServer

/// The YAML loader and the server read a layout through one table
/// (``LayoutField/all``): every field takes and refuses the same values on both sides.
@Suite struct LayoutFieldsTests {
  /// Whether a file whose `layout:` gives `field` (under `parent`) the value `yaml` loads without an error.
  func yamlAccepts(_ field: String, parent: String?, _ yaml: String) throws -> Bool {
    let entry = parent.map { "\($0): {\(field): \(yaml)}" } ?? "\(field): \(yaml)"
    let text = "layout:\n  \(entry)\ngroups: []\n"
    return try OutlineLoader.load(Array(text.utf8)).diagnostics.allSatisfy { $0.severity != .error }
  }

  /// Whether `setLayout` params giving `field` the value `json` are read without `-32602`.
  func jsonAccepts(_ field: String, parent: String?, _ json: JSONValue) -> Bool {
    let params: JSONValue = parent.map { .object([$0: .object([field: json])]) } ?? .object([field: json])
    return (try? LayoutFields.read(ParamsReader(params))) != nil
  }

  /// Values at and just past each bound of `kind`, with whether they are in.
  func samples(_ kind: LayoutField.Kind) -> [(yaml: String, json: JSONValue, accepted: Bool)] {
    let max = LayoutLimits.maxLength
    switch kind {
    case .unit:
      return [("px", "px", true), ("em", "em", false)]
    case .length(_, let minimum, let strict):
      return [
        ("\(minimum)", .double(minimum), !strict), ("\(minimum + 0.5)", .double(minimum + 0.5), true),
        ("\(minimum - 1)", .double(minimum - 1), false), ("\(max)", .double(max), true),
        ("\(max + 1)", .double(max + 1), false),
      ]
    case .integer(_, let minimum):
      let top = LayoutLimits.maxInteger
      return [
        ("\(minimum)", .int(Int64(minimum)), true), ("\(minimum - 1)", .int(Int64(minimum - 1)), false),
        ("\(top)", .int(top), true), ("\(top + 1)", .int(top + 1), false), ("1.5", .double(1.5), false),
      ]
    case .height:
      return [("auto", "auto", true), ("0", 0, true), ("-1", -1, false), ("\(max + 1)", .double(max + 1), false)]
    case .fields:
      return []
    case .font:
      let family: JSONValue = .array(["Noto Sans"])
      return [
        ("{family: [Noto Sans], size: 14}", .object(["family": family, "size": 14]), true),
        (
          "{family: [A, B], size: 0.5, weight: 900, style: italic}",
          .object(["family": .array(["A", "B"]), "size": 0.5, "weight": 900, "style": "italic"]), true
        ),
        ("{size: 14}", .object(["size": 14]), false),
        ("{family: [], size: 14}", .object(["family": .array([]), "size": 14]), false),
        ("{family: Noto Sans, size: 14}", .object(["family": "Noto Sans", "size": 14]), false),
        ("{family: [\"\"], size: 14}", .object(["family": .array([""]), "size": 14]), false),
        ("{family: [Noto Sans]}", .object(["family": family]), false),
        ("{family: [Noto Sans], size: 0}", .object(["family": family, "size": 0]), false),
        (
          "{family: [Noto Sans], size: \(LayoutLimits.maxFontSize + 1)}",
          .object(["family": family, "size": .double(LayoutLimits.maxFontSize + 1)]), false
        ),
        ("{family: [Noto Sans], size: 14, weight: 99}", .object(["family": family, "size": 14, "weight": 99]), false),
        (
          "{family: [Noto Sans], size: 14, weight: 901}", .object(["family": family, "size": 14, "weight": 901]), false
        ),
        (
          "{family: [Noto Sans], size: 14, style: oblique}",
          .object(["family": family, "size": 14, "style": "oblique"]), false
        ),
        ("Noto Sans", "Noto Sans", false),
      ]
    }
  }

  @Test func everyFieldHasTheSameBoundsInAFileAndOverJSON() throws {
    var checked = 0
    for field in LayoutField.all {
      let leaves: [(LayoutField, String?)]
      if case .fields(let inner) = field.kind {
        leaves = inner.map { ($0, field.name) }
      } else {
        leaves = [(field, nil)]
      }
      for (leaf, parent) in leaves {
        for sample in samples(leaf.kind) {
          let yaml = try yamlAccepts(leaf.name, parent: parent, sample.yaml)
          let json = jsonAccepts(leaf.name, parent: parent, sample.json)
          #expect(yaml == sample.accepted, "\(leaf.name) = \(sample.yaml) in a file")
          #expect(json == sample.accepted, "\(leaf.name) = \(sample.json.jsonText) over JSON")
          checked += 1
        }
      }
    }
    #expect(checked > 40)
  }
}
