import Foundation
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
  try expectSameThroughFile(Array(yaml.utf8), result, options: options, sourceLocation: sourceLocation)
  #expect(result.diagnostics.map(render) == expected, sourceLocation: sourceLocation)
  let hasError = result.diagnostics.contains { $0.severity == .error }
  #expect((result.document == nil) == hasError, sourceLocation: sourceLocation)
  return result.document
}

/// Loads `yaml`, expecting no diagnostics at all, and returns the document.
func expectDocument(_ yaml: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> OutlineDocument {
  let result = try OutlineLoader.load(Array(yaml.utf8))
  try expectSameThroughFile(Array(yaml.utf8), result, sourceLocation: sourceLocation)
  #expect(result.diagnostics.map(render) == [], sourceLocation: sourceLocation)
  return try #require(result.document, sourceLocation: sourceLocation)
}

/// The `data:` of the first row of the first group of `yaml`.
func data(_ yaml: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> OpaqueValue? {
  let doc = try expectDocument(yaml, sourceLocation: sourceLocation)
  return try #require(doc.groups.first?.rows.first, sourceLocation: sourceLocation).data
}

/// An open temporary file holding `bytes`; removed when closed.
final class TemporaryFile {
  let descriptor: Int32
  let size: Int

  init(_ bytes: [UInt8]) throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("outline-\(UUID().uuidString).yaml").path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    descriptor = open(path, O_RDONLY)
    unlink(path)
    size = bytes.count
  }

  deinit { close(descriptor) }
}

/// Reads `bytes` through ``LoaderInput/file(descriptor:size:)`` in chunks of
/// `chunkSize` bytes, into a ``DocumentBuilder``.
func loadThroughFile(
  _ bytes: [UInt8], chunkSize: Int = 1 << 16, options: OutlineLoader.Options = .init(),
  shouldCancel: (() -> Bool)? = nil, progress: ((Double) -> Void)? = nil
) throws -> LoadResult {
  let file = try TemporaryFile(bytes)
  var options = options
  options.readChunkSize = chunkSize
  var builder = DocumentBuilder()
  let diagnostics = try OutlineLoader.read(
    .file(descriptor: file.descriptor, size: file.size), into: &builder, options: options,
    shouldCancel: shouldCancel, progress: progress)
  let failed = diagnostics.contains { $0.severity == .error }
  return LoadResult(document: failed ? nil : builder.document, diagnostics: diagnostics)
}

/// Checks that reading `bytes` from a file, in chunks of 1, 7 and 64 Ki
/// bytes, gives `expected` (the result from the bytes).
func expectSameThroughFile(
  _ bytes: [UInt8], _ expected: LoadResult, options: OutlineLoader.Options = .init(),
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  for chunkSize in [1, 7, 1 << 16] {
    let result = try loadThroughFile(bytes, chunkSize: chunkSize, options: options)
    #expect(result.diagnostics == expected.diagnostics, "chunks of \(chunkSize)", sourceLocation: sourceLocation)
    // Compared as text: a NaN in `data:` is not equal to itself.
    #expect(
      String(describing: result.document) == String(describing: expected.document), "chunks of \(chunkSize)",
      sourceLocation: sourceLocation)
  }
}
