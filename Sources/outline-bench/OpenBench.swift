import Foundation
import OutlineModel
import OutlineYAML

enum OpenBench {
  /// Writes a group file of about `megabytes` MB: groups of 10 rows with ids,
  /// titles, details, icons and flags. Returns its size in bytes.
  static func writeFile(_ path: String, megabytes: Int, rowsOut: inout Int) -> Int {
    let target = megabytes * 1_000_000
    var text = "title: Benchmark\nexpansion: multiple\ngroups:\n"
    text.reserveCapacity(target + 4096)
    var g = 0
    var rows = 0
    while text.utf8.count < target {
      text += "  - id: g\(g)\n    title: Group \(g)\n    expanded: \(g % 2 == 0)\n    rows:\n"
      for _ in 0..<10 {
        text += "      - id: r\(rows)\n        title: Person \(rows)\n"
        text += "        detail: Working from Lisbon this week, desk \(rows % 97)\n"
        text += "        icon: avatar-\(rows % 8)\n        active: \(rows % 3 != 0)\n"
        rows += 1
      }
      g += 1
    }
    _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    rowsOut = rows
    return text.utf8.count
  }

  static func table(_ options: Options, _ paths: Paths) -> Table {
    let file = paths.temp + "/open.yaml"
    var rows = 0
    progressLog("open: writing a \(options.openMB) MB file")
    let size = writeFile(file, megabytes: options.openMB, rowsOut: &rows)
    let mb = Double(size) / 1_000_000
    let reps = options.quick ? 1 : 3
    var t = Table(
      title: "2. Open a \(String(format: "%.1f", mb)) MB group file (\(rows) rows; median of \(reps))",
      header: ["what", "time", "MB/s", "vs floor MB/s", "peak RSS", "RSS / file"])

    // The floor: libyaml's event loop alone, in C.
    var floorRate = Double.nan
    let floorExe = paths.compile("yaml-events", libraries: ["-lyaml"])
    /// One run of the floor: its time in ns, or NaN.
    func floorTime() -> Double {
      guard let floorExe, let out = capture([floorExe, file])?.split(separator: " "), out.count == 3 else {
        return .nan
      }
      return (Double(out[0]) ?? .nan) * 1e9
    }
    if let exe = floorExe {
      var times: [Double] = []
      var rss = 0
      for _ in 0..<reps {
        guard let out = capture([exe, file])?.split(separator: " "), out.count == 3 else { continue }
        times.append((Double(out[0]) ?? .nan) * 1e9)
        rss = Int(out[2].trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
      }
      let m = median(times)
      floorRate = mb / (m / 1e9)
      t.rows.append([
        "floor: libyaml event loop (C, bench/yaml-events.c)", fmtTime(m), String(format: "%.1f", floorRate), "1.00",
        fmtBytes(Double(rss)), String(format: "%.2f", Double(rss) / Double(size)),
      ])
    } else {
      t.rows.append(["floor: bench/yaml-events.c did not compile (cc, libyaml-dev?)"])
    }

    // In process: the loader, then the outline and its state.
    let bytes = [UInt8](FileManager.default.contents(atPath: file)!)
    var loadTimes: [Double] = []
    var buildTimes: [Double] = []
    var progressCalls = 0
    var tableBytes = (items: 0, table: 0, text: 0)
    for _ in 0..<reps {
      var calls = 0
      let t0 = nowNanos()
      let outline = try! OutlineLoader.loadOutline(.bytes(bytes), progress: { _ in calls += 1 }).outline!
      let t1 = nowNanos()
      let state = OutlineState(outline: outline)
      let t2 = nowNanos()
      tableBytes = (outline.count, outline.itemTableBytes, outline.textBytes)
      sink(state)
      loadTimes.append(Double(t1 - t0))
      buildTimes.append(Double(t2 - t1))
      progressCalls = calls
    }
    let load = median(loadTimes)
    let build = median(buildTimes)
    t.rows.append([
      "in process: OutlineLoader.loadOutline (YAML → Outline)", fmtTime(load),
      String(format: "%.1f", mb / (load / 1e9)),
      String(format: "%.2f", mb / (load / 1e9) / floorRate), "", "",
    ])
    t.rows.append([
      "in process: + OutlineState (heights, index)", fmtTime(load + build),
      String(format: "%.1f", mb / ((load + build) / 1e9)),
      String(format: "%.2f", mb / ((load + build) / 1e9) / floorRate), "", "",
    ])

    // The loader alone, reading the file through its descriptor, in a fresh process.
    var aloneTimes: [Double] = []
    var alonePeak = 0.0
    for _ in 0..<reps {
      let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
      guard let out = capture([exe, "--read-file", file])?.split(separator: " "), out.count == 3 else { continue }
      aloneTimes.append((Double(out[0]) ?? .nan) * 1e9)
      alonePeak = Double(out[2].trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }
    let alone = median(aloneTimes)
    t.rows.append([
      "fresh process: OutlineLoader.read(.file) into a sink that keeps nothing", fmtTime(alone),
      String(format: "%.1f", mb / (alone / 1e9)), String(format: "%.2f", mb / (alone / 1e9) / floorRate),
      fmtBytes(alonePeak), String(format: "%.2f", alonePeak / Double(size)),
    ])
    t.notes.append(
      "Outline item table: " + String(format: "%.1f", Double(tableBytes.table) / Double(tableBytes.items))
        + " B/item plus " + String(format: "%.1f", Double(tableBytes.text) / Double(tableBytes.items))
        + " B/item of UTF-8 text (\(tableBytes.items) items).")

    // The server: openOutline of the file: uri, in a fresh process each time.
    var serverRatio = Double.nan
    var serverRSS = Double.nan
    if let server = paths.server {
      let variants: [(String, String)] = [
        ("outline-server: openOutline {uri: file:…} (read, load, index, answer)", ""),
        ("outline-server: same, layout {rowHeight: 2} (no text measuring)", #","layout":{"rowHeight":2}"#),
      ]
      for (k, (label, extra)) in variants.enumerated() {
        var times: [Double] = []
        var ratios: [Double] = []
        var peaks: [Double] = []
        for _ in 0..<reps {
          // Paired with a run of the floor just before it: on a shared machine the speed
          // moves by tens of percent within a minute, and a pair sees the same conditions.
          let floorNow = floorTime()
          // Its own state directory: the 2nd and 3rd opens restore what the 1st saved, as a user would.
          guard let c = try? LSPClient(executable: server, arguments: ["--state-dir", paths.temp + "/state"]) else {
            break
          }
          c.call(Wire.initialize)
          c.send(Wire.initialized)
          let t0 = nowNanos()
          let answer =
            c.call(#"{"jsonrpc":"2.0","id":1,"method":"openOutline","params":{"uri":"file://\#(file)"\#(extra)}}"#)
            ?? ""
          times.append(Double(nowNanos() - t0))
          ratios.append(floorNow / times[times.count - 1])
          if !answer.contains("\"rowCount\"") { progressLog("open failed: \(answer.prefix(300))") }
          peaks.append(Double(peakRSS(pid: c.pid) ?? 0))
          c.close()
        }
        let m = median(times)
        let rate = mb / (m / 1e9)
        let rss = median(peaks)
        let ratio = median(ratios)
        if k == 0 {
          serverRatio = ratio
          serverRSS = rss
        }
        t.rows.append([
          label, fmtTime(m), String(format: "%.1f", rate), String(format: "%.2f", ratio), fmtBytes(rss),
          String(format: "%.2f", rss / Double(size)),
        ])
      }
      // Ending without shutdown while the open runs: the open is cancelled,
      // so the process ends at once instead of after the open.
      let ends: [(String, Bool)] = [
        ("outline-server: exit without shutdown 0.3 s into the open, until stdout closes", true),
        ("outline-server: end of input without shutdown 0.3 s into the open, until stdout closes", false),
      ]
      for (label, byExit) in ends {
        var times: [Double] = []
        for _ in 0..<reps {
          guard let c = try? LSPClient(executable: server, arguments: ["--state-dir", paths.temp + "/state"]) else {
            break
          }
          c.call(Wire.initialize)
          c.send(Wire.initialized)
          c.send(#"{"jsonrpc":"2.0","id":1,"method":"openOutline","params":{"uri":"file://\#(file)"}}"#)
          usleep(300_000)
          let t0 = nowNanos()
          if byExit { c.send(#"{"jsonrpc":"2.0","method":"exit"}"#) } else { c.closeInput() }
          // The process has ended when its stdout does (Process's own wait polls too coarsely).
          c.readUntilEnd()
          times.append(Double(nowNanos() - t0))
          c.close()
        }
        t.rows.append([label, fmtTime(median(times)), "", "", "", ""])
      }
    } else {
      t.rows.append(["outline-server: not built (swift build -c release)"])
    }
    let rateOK = serverRatio >= 0.6
    let rssOK = serverRSS / Double(size) <= 1.5
    t.notes.append(
      "Goal ≥ 60 % of the floor's MB/s: \(String(format: "%.0f", 100 * serverRatio)) % → "
        + (rateOK ? "met" : "NOT met") + ". Goal peak RSS ≤ 1.5× the file: "
        + String(format: "%.2f×", serverRSS / Double(size)) + " → " + (rssOK ? "met" : "NOT met") + ".")
    t.notes.append(
      "The server rows' \"vs floor\" is the median of the ratios of runs paired with a floor run just before each.")
    t.notes.append(
      "The loader reported its fraction done \(progressCalls) times per load (the hook for `$/progress`).")
    return t
  }

  /// Reads `path` through ``LoaderInput/file(descriptor:size:)`` into a sink
  /// that only counts rows: `"<seconds> <rows> <peak RSS bytes>"`, or `nil`
  /// when the file cannot be opened or has an error.
  static func readAlone(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { return nil }
    var counter = RowCounter()
    let t0 = nowNanos()
    guard let diagnostics = try? OutlineLoader.read(.file(descriptor: fd, size: Int(info.st_size)), into: &counter),
      !diagnostics.contains(where: { $0.severity == .error })
    else { return nil }
    let seconds = Double(nowNanos() - t0) / 1e9
    return "\(seconds) \(counter.rows) \(peakRSS() ?? 0)"
  }
}

/// A sink that keeps nothing but a row count.
private struct RowCounter: OutlineSink {
  var rows = 0
  var groups = 0
  mutating func setTitle(_ title: String) {}
  mutating func setExpansion(_ policy: ExpansionPolicy) {}
  mutating func setLayout(_ layout: LayoutOverrides) {}
  mutating func beginGroup(parent: Int?, source: SourceRange) -> Int {
    groups += 1
    return groups
  }
  mutating func addRow(_ row: RowSpec, parent: Int) { rows += 1 }
  mutating func endGroup(_ group: Int, fields: GroupSpec) {}
}
