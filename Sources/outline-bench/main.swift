import Foundation

/// `outline-bench [--quick] [--sizes 1k,100k,1M,10M] [--only engine,open,e2e,filter,edit,json,server] [--no-nested]`
///
/// Prints one set of tables (Markdown) with the figures and the ratios to the
/// goals and to the floors, all measured in this run. Progress goes to stderr.
struct Options {
  var quick = false
  var sizes: [Int] = [1_000, 100_000, 1_000_000, 10_000_000]
  var sections: Set<String> = ["engine", "open", "e2e", "filter", "edit"]
  var nested = true
  var openMB = 50
  /// `--read-file PATH`: only read PATH with the loader's file input into a
  /// sink that keeps nothing, and print `<seconds> <rows> <peak RSS bytes>`.
  var readFile: String?
  /// `--write-open-file PATH`: only write the open section's file of `--open-mb` MB to PATH.
  var writeOpenFile: String?

  static func parse(_ args: [String]) -> Options {
    var o = Options()
    var explicitSizes = false
    var i = 0
    func value() -> String {
      i += 1
      guard i < args.count else { fail("\(args[i - 1]) needs a value") }
      return args[i]
    }
    while i < args.count {
      switch args[i] {
      case "--quick": o.quick = true
      case "--sizes":
        o.sizes = value().split(separator: ",").map { s in
          guard let n = parseCount(String(s)) else { fail("bad size \(s)") }
          return n
        }
        explicitSizes = true
      case "--only": o.sections = Set(value().split(separator: ",").map(String.init))
      case "--no-nested": o.nested = false
      case "--open-mb": o.openMB = Int(value()) ?? 50
      case "--read-file": o.readFile = value()
      case "--write-open-file": o.writeOpenFile = value()
      case "-h", "--help":
        print(
          "usage: outline-bench [--quick] [--sizes 1k,100k,1M,10M] [--only engine,open,e2e,filter,edit,json,server] [--no-nested] [--open-mb 50] [--read-file PATH] [--write-open-file PATH]"
        )
        exit(0)
      default: fail("unknown argument \(args[i])")
      }
      i += 1
    }
    if o.quick {
      if !explicitSizes { o.sizes = [1_000, 100_000] }
      o.openMB = min(o.openMB, 2)
    }
    return o
  }
}

func parseCount(_ s: String) -> Int? {
  let t = s.lowercased()
  if t.hasSuffix("k") { return Int(t.dropLast()).map { $0 * 1_000 } }
  if t.hasSuffix("m") { return Int(t.dropLast()).map { $0 * 1_000_000 } }
  return Int(t)
}

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("outline-bench: \(message)\n".utf8))
  exit(64)
}

let options = Options.parse(Array(CommandLine.arguments.dropFirst()))
if let path = options.readFile {
  guard let line = OpenBench.readAlone(path) else { fail("cannot read \(path)") }
  print(line)
  exit(0)
}
if let path = options.writeOpenFile {
  var rows = 0
  let size = OpenBench.writeFile(path, megabytes: options.openMB, rowsOut: &rows)
  print("\(size) bytes, \(rows) rows")
  exit(0)
}
var output = "# outline-bench\(options.quick ? " (--quick)" : "")\n\n"
#if DEBUG
  output +=
    "Debug build: these figures only show that the benchmark runs; use `swift run -c release outline-bench`.\n\n"
#endif

if options.sections.contains("engine") {
  output += EngineReport.table(options).render()
  print(output, terminator: "")
  output = ""
}

let paths = Paths.locate()

if options.sections.contains("open") {
  output += OpenBench.table(options, paths).render()
  print(output, terminator: "")
  output = ""
}

if options.sections.contains("e2e") {
  output += EndToEndReport.table(options, paths).render()
  print(output, terminator: "")
  output = ""
}

if options.sections.contains("filter") {
  output += FilterBench.table(options, paths).render()
  print(output, terminator: "")
  output = ""
}

if options.sections.contains("edit") {
  output += EditBench.table(options, paths).render()
  print(output, terminator: "")
  output = ""
}

if options.sections.contains("json") || options.sections.contains("server") {
  // The server's own work per request, in process: outline-bench --only server.
  let server = ServerCost.measure(quick: options.quick)
  print(
    "Server in process: unknown method \(fmtTime(server.unknownMethod)), toggleSection "
      + "\(fmtTime(server.toggleSection)), visibleRows (100 rows) \(fmtTime(server.visibleRows100))")
}

if options.sections.contains("json") {
  // Alone, for instruction counts: outline-bench --only json --quick under callgrind.
  let cost = JSONCost.measure(quick: options.quick)
  print(
    "JSON in process: decode a request \(fmtTime(cost.decodeRequest)); encode a toggle answer: "
      + "JSONEncoder \(fmtTime(cost.encodeToggleFoundation)), JSONWriter \(fmtTime(cost.encodeToggle)); "
      + "encode 100 rows: JSONEncoder \(fmtTime(cost.encodeRowsFoundation)), "
      + "JSONWriter over JSONValue \(fmtTime(cost.encodeRows)), JSONWriter over typed rows "
      + "\(fmtTime(cost.encodeRowsTyped))")
  print(JSONDecodeCost.table(quick: options.quick).render(), terminator: "")

}
