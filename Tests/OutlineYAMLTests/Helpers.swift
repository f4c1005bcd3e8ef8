import OutlineModel
import OutlineYAML
import Testing

/// A diagnostic as one line: `line:col-line:col severity code: message` (0-based).
func render(_ d: Diagnostic) -> String {
  let r = d.range
  let severity = d.severity == .error ? "error" : "warning"
  return "\(r.start.line):\(r.start.column)-\(r.end.line):\(r.end.column) \(severity) \(d.code): \(d.message)"
}

/// Loads `yaml` and returns the result.
func load(_ yaml: String, options: OutlineLoader.Options = .init()) throws -> LoadResult {
  try OutlineLoader.load(Array(yaml.utf8), options: options)
}

/// Loads `yaml` and checks its whole diagnostics, and that a document comes
/// back if and only if none is an error.
@discardableResult
func expectDiagnostics(
  _ yaml: String, _ expected: [String], options: OutlineLoader.Options = .init(),
  sourceLocation: SourceLocation = #_sourceLocation
) throws -> OutlineDocument? {
  let result = try OutlineLoader.load(Array(yaml.utf8), options: options)
  #expect(result.diagnostics.map(render) == expected, sourceLocation: sourceLocation)
  let hasError = result.diagnostics.contains { $0.severity == .error }
  #expect((result.document == nil) == hasError, sourceLocation: sourceLocation)
  return result.document
}

/// Loads `yaml`, expecting no diagnostics at all, and returns the document.
func expectDocument(_ yaml: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> OutlineDocument {
  let result = try OutlineLoader.load(Array(yaml.utf8))
  #expect(result.diagnostics.map(render) == [], sourceLocation: sourceLocation)
  return try #require(result.document, sourceLocation: sourceLocation)
}

/// The `data:` of the first row of the first group of `yaml`.
func data(_ yaml: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> OpaqueValue? {
  let doc = try expectDocument(yaml, sourceLocation: sourceLocation)
  return try #require(doc.groups.first?.rows.first, sourceLocation: sourceLocation).data
}
