import Foundation
import JSONRPC
import OutlineModel
import OutlineTestSupport
import OutlineYAML
import Testing

@testable import OutlineServer

@Suite struct OpenFileTests {
  @Test func aRegularFileIsReadThroughItsDescriptor() throws {
    let text = "title: T\ngroups:\n  - title: A\n    rows: [{title: r}]\n"
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("open-\(UUID().uuidString).yaml").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    defer { unlink(path) }
    let file = try RegularFile(opening: path)
    #expect(file.size == text.utf8.count)
    var builder = DocumentBuilder()
    let diagnostics = try OutlineLoader.read(.file(descriptor: file.descriptor, size: file.size), into: &builder)
    #expect(diagnostics.isEmpty)
    #expect(builder.document == (try OutlineLoader.load(Array(text.utf8))).document)
  }

  @Test func onlyRegularFilesOpen() {
    for (path, reason) in [
      ("/dev/null", "not a regular file"), ("/tmp", "it is a directory"), ("/nowhere/x", "no such file"),
    ] {
      #expect {
        _ = try RegularFile(opening: path)
      } throws: { error in
        (error as? RegularFile.ReadError)?.description == "cannot read \(path): \(reason)"
      }
    }
  }

  @Test func aFileRewrittenWhileItIsReadIsReadAgain() throws {
    // Rewritten in place at the first progress report: the outline must be
    // the new text's, never a mix of the two.
    let rows = (0..<20_000).map { "      - {id: r\($0), title: Person \($0)}\n" }.joined()
    let old = "groups:\n  - title: Old\n    rows:\n" + rows
    let new = "groups:\n  - title: New\n    rows: [{title: only}]\n"
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("rewrite-\(UUID().uuidString).yaml").path
    try Data(old.utf8).write(to: URL(fileURLWithPath: path))
    defer { unlink(path) }
    let server = OutlineServer(exitProcess: { _ in })
    var rewritten = false
    var fractions: [Double] = []
    let loaded = try server.load(.file(path: path), cancellation: CancellationToken()) { fraction in
      fractions.append(fraction)
      guard !rewritten else { return }
      rewritten = true
      // Truncate and write, as an editor saving in place does.
      let fd = open(path, O_WRONLY | O_TRUNC)
      _ = new.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, new.utf8.count) }
      close(fd)
    }
    #expect(rewritten)
    // Progress rises over both reads, each fraction once.
    #expect(fractions == fractions.sorted() && Set(fractions).count == fractions.count)
    #expect(fractions.last == 1)
    let outline = try #require(loaded.outline)
    #expect(outline.rowCount == 1)
    #expect(outline.title(at: 0) == "New")
  }
}

@Suite struct DiagnosticListTests {
  private func diagnostic(_ line: Int, _ severity: Diagnostic.Severity) -> Diagnostic {
    let at = SourcePosition(line: line, column: 0)
    return Diagnostic(
      range: SourceRange(start: at, end: at), severity: severity, code: severity == .error ? "type" : "unknown-key",
      message: "line \(line)")
  }

  @Test func aFewAreListedAsTheyAre() {
    let few = (0..<OutlineServer.maxDiagnostics).map { diagnostic($0, .warning) }
    #expect(OutlineServer.listed(few) == few)
  }

  @Test func pastTheCapErrorsComeFirstAndTheRestIsCounted() {
    let many = (0..<1500).map { diagnostic($0, .warning) } + [diagnostic(1500, .error), diagnostic(1501, .error)]
    let listed = OutlineServer.listed(many)
    #expect(listed.count == OutlineServer.maxDiagnostics)
    #expect(listed.prefix(2).allSatisfy { $0.severity == .error })
    #expect(listed.dropFirst(2).allSatisfy { $0.severity == .warning })
    let last = listed[listed.count - 1]
    #expect(last.code == "too-many-diagnostics")
    #expect(last.severity == .warning)
    #expect(last.message == "503 more diagnostics are not listed (only the first 999 are)")
    #expect(last.range.start.line == 997)
  }
}
