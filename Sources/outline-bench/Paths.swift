import Foundation

/// Where the benchmark finds its inputs and writes its scratch files.
struct Paths {
  /// The package root (holds `bench/`).
  var root: String
  /// The release `outline-server` next to this binary, if built.
  var server: String?
  /// A scratch directory, removed at exit.
  var temp: String
  var cc: String

  static func locate() -> Paths {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().path
    let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    let binDir = (Bundle.main.executableURL ?? me).deletingLastPathComponent().path
    var server = binDir + "/outline-server"
    if !FileManager.default.isExecutableFile(atPath: server) {
      progressLog("building outline-server (swift build -c release --product outline-server)")
      _ = shell(["swift", "build", "-c", "release", "--package-path", root, "--product", "outline-server"])
    }
    if !FileManager.default.isExecutableFile(atPath: server) { server = "" }
    let temp = NSTemporaryDirectory() + "outline-bench-\(getpid())"
    try? FileManager.default.createDirectory(atPath: temp, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "outline-bench-\(getpid())") }
    return Paths(root: root, server: server.isEmpty ? nil : server, temp: temp, cc: "cc")
  }

  /// Compiles `bench/<name>.c` into the scratch directory; the binary's path or `nil`.
  func compile(_ name: String, libraries: [String] = []) -> String? {
    let out = temp + "/" + name
    let status = shell([cc, "-O2", "-o", out, root + "/bench/" + name + ".c"] + libraries)
    return status == 0 ? out : nil
  }

  /// The first of the toolchain's binaries named `name`.
  static func tool(_ name: String) -> String? {
    var dirs = ["/opt/swift/usr/bin"]
    dirs += (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
    return dirs.map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }
}

/// Runs a command (found on PATH), waits, returns its status; its output goes to stderr.
@discardableResult
func shell(_ args: [String], stdout: FileHandle? = nil) -> Int32 {
  let p = Process()
  p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  p.arguments = args
  p.standardOutput = stdout ?? FileHandle.standardError
  do { try p.run() } catch { return -1 }
  p.waitUntilExit()
  return p.terminationStatus
}

/// Runs a command and returns its standard output.
func capture(_ args: [String]) -> String? {
  let pipe = Pipe()
  let p = Process()
  p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  p.arguments = args
  p.standardOutput = pipe
  do { try p.run() } catch { return nil }
  let data = pipe.fileHandleForReading.readDataToEndOfFile()
  p.waitUntilExit()
  return p.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
}
