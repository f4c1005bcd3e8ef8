// libFuzzer harness for the message framers (LSP and ndjson).
//
// The first byte picks the framing and how the rest is cut into pushes; the
// framer must never trap, must return bodies no longer than its limit, and
// must give the same bodies however the bytes are split, whether copied out
// (next) or handed out in place (withNextBody), where the padding after each
// body must be readable (AddressSanitizer checks the reads).
import JSONRPC

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFramer(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  guard size > 0 else { return 0 }
  let control = data[0]
  let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
  let framing: Framing = control & 1 == 0 ? .lsp : .ndjson
  let limit = control & 2 == 0 ? 64 : 1 << 20
  let step = Int(control >> 2) + 1

  let whole = bodies(framing, limit, bytes, step: bytes.count + 1)
  let split = bodies(framing, limit, bytes, step: step, inPlace: true)
  precondition(whole.bodies == split.bodies, "the bodies depend on how the input was split")
  precondition(whole.failed == split.failed, "a framing error depends on how the input was split")
  for body in whole.bodies {
    precondition(body.count <= limit, "a body of \(body.count) bytes passed a limit of \(limit)")
    // Round trip: framing a body and reading it back gives the body.
    if framing == .lsp || !body.contains(UInt8(ascii: "\n")) {
      var again = framing.makeFramer(maxMessageBytes: limit)
      again.push(framing.frame(body))
      let back = try? again.next()
      if framing == .lsp || !body.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
        precondition(back == body || (framing == .ndjson && body.last == 0x0D), "a framed body did not read back")
      }
    }
  }
  return 0
}

private func bodies(_ framing: Framing, _ limit: Int, _ bytes: [UInt8], step: Int, inPlace: Bool = false) -> (
  bodies: [[UInt8]], failed: Bool
) {
  var framer = framing.makeFramer(maxMessageBytes: limit)
  var out: [[UInt8]] = []
  var offset = 0
  do {
    while offset < bytes.count {
      let end = min(bytes.count, offset + step)
      framer.push(bytes[offset..<end])
      offset = end
      if inPlace {
        while let body = try framer.withNextBody(readPadded) { out.append(body) }
      } else {
        while let body = try framer.next() { out.append(body) }
      }
    }
    if let last = try (inPlace ? framer.withFinalBody(readPadded) : framer.finish()) { out.append(last) }
  } catch {
    return (out, true)
  }
  return (out, false)
}

/// Where the padding bytes read go, so the reads are not optimized away.
nonisolated(unsafe) private var paddingSum: UInt8 = 0

/// The body's bytes, after reading the padding that follows them.
private func readPadded(_ body: PaddedBytes) -> [UInt8] {
  let after = UnsafeRawBufferPointer(start: body.bytes.baseAddress! + body.count, count: JSONParser.padding)
  paddingSum &+= after.reduce(0, &+)
  return [UInt8](body.bytes)
}
