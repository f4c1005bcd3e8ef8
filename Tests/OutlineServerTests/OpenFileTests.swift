import Foundation
import JSONRPC
import OutlineModel
import OutlineYAML
import Testing

@testable import OutlineServer

@Suite struct OpenFileTests {
  @Test func aRegularFileIsReadThroughItsDescriptor() throws {
    let text = "title: T\ngroups:\n  - title: A\n    rows: [{title: r}]\n"
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("open-\(UUID().uuidString).yaml").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    defer { unlink(path) }
    let file = try OutlineServer.openRegularFile(path)
    defer { close(file.descriptor) }
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
        _ = try OutlineServer.openRegularFile(path)
      } throws: { error in
        (error as? ResponseError)?.message == "cannot read \(path): \(reason)"
      }
    }
  }
}
