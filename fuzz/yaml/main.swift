// libFuzzer harness for the YAML group-definition loader.
//
// Any bytes must load to a document or to error diagnostics, never trap;
// a document comes back if and only if no diagnostic is an error, and every
// diagnostic's range is ordered. Small limits make the node and depth checks
// reachable from short inputs.
import OutlineModel
import OutlineYAML

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzYAML(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  var options = OutlineLoader.Options()
  options.maxNodes = 5_000
  options.maxDepth = 64
  guard let result = try? OutlineLoader.load(bytes, options: options) else {
    preconditionFailure("load threw without a cancellation")
  }
  let hasError = result.diagnostics.contains { $0.severity == .error }
  precondition(hasError == (result.document == nil), "a document with errors, or none without")
  let text = SourceText(bytes)
  for d in result.diagnostics {
    let r = d.range
    precondition(
      (r.start.line, r.start.column) <= (r.end.line, r.end.column), "diagnostic range ends before it starts: \(d)")
    // Converting positions to every encoding must not trap.
    for e in PositionEncoding.allCases {
      _ = text.lspPosition(r.start, in: e)
      _ = text.lspPosition(r.end, in: e)
    }
  }
  if let document = result.document {
    _ = Outline(document: document)
  }
  return 0
}
