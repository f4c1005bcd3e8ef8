import OutlineModel

extension OutlineLoader {
  /// Reads a group-definition file straight into an ``Outline`` (through an
  /// ``OutlineBuilder``, no intermediate document).
  ///
  /// The builder's tables are reserved from the input's size (about one item
  /// per 64 bytes, text up to the input's size): reserved pages cost address
  /// space only until written, and a table that outgrows its reservation
  /// would hold its old and new copies at once.
  ///
  /// - Parameters: as ``read(_:into:options:shouldCancel:progress:)``.
  /// - Returns: the outline, `nil` if and only if a diagnostic is an error;
  ///   the diagnostics sorted by position.
  /// - Throws: `CancellationError` when `shouldCancel` returned `true`;
  ///   ``ReadError`` when the file could not be read.
  /// - Complexity: O(n) in the input's size plus the expanded node count.
  public static func loadOutline(
    _ input: LoaderInput, options: Options = .init(), shouldCancel: (() -> Bool)? = nil,
    progress: ((Double) -> Void)? = nil
  ) throws -> (outline: Outline?, diagnostics: [Diagnostic]) {
    let size: Int
    switch input {
    case .bytes(let bytes): size = bytes.count
    case .file(_, let fileSize): size = fileSize
    }
    var builder = OutlineBuilder()
    builder.reserveCapacity(items: size / 64 + 16, textBytes: size + 16)
    let diagnostics = try read(input, into: &builder, options: options, shouldCancel: shouldCancel, progress: progress)
    let failed = diagnostics.contains { $0.severity == .error }
    return (failed ? nil : builder.finish(), diagnostics)
  }
}
