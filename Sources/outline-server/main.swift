import Foundation
import OutlineServer

do {
  switch try Command.parse(Array(CommandLine.arguments.dropFirst())) {
  case .help:
    print(Command.usage, terminator: "")
  case .version:
    print("\(ServerInfo.name) \(ServerInfo.version)")
  case .render(let file, let width, let expand, let font):
    let output = RenderCommand.run(file: file, width: width, expand: expand, font: font)
    FileHandle.standardOutput.write(Data(output.stdout.utf8))
    FileHandle.standardError.write(Data(output.stderr.utf8))
    exit(output.status)
  case .serve(let options):
    ServeCommand.run(options)
  }
} catch {
  FileHandle.standardError.write(Data("outline-server: \(error)\n\(Command.shortUsage)".utf8))
  exit(64)
}
