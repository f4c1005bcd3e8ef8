import JSONRPC
import OutlineModel

/// The text of an open outline as the server keeps it (PROTOCOL §9): the
/// text of the last `openOutline` or `changeOutline` (also when it had
/// errors: the outline is then the last good one, the text the host's
/// latest), with the `edits` since applied; for a `file:` outline opened
/// from disk, the file as read.
///
/// A file as read is not kept in memory (a big file would be there twice
/// while it is parsed): its path and stamp are, and it is read again, once,
/// when edits or ranges first need it (``OutlineServer/sourceText(of:)``).
/// The line index is made on first use and kept until the text changes.
enum DocumentText {
  /// The file at `path` as it was read, when its stamp was `stamp`.
  case file(path: String, stamp: RegularFile.Stamp?)
  /// The UTF-8 bytes the host sent, not indexed yet.
  case bytes([UInt8])
  /// The text with its line index.
  case indexed(SourceText)
}

extension OutlineServer {
  /// The text `doc` keeps, with its line index: indexed on first use and
  /// kept until the text changes. A file as read is read again then: if
  /// it changed since (its ``RegularFile/Stamp`` moved), a watched file is
  /// reloaded first, as the watcher would (`outlineChanged` is sent), and
  /// its new text is the file as read; an unwatched one is refused.
  ///
  /// - Throws: `-32013` naming the path when the file cannot be read, or
  ///   changed since it was read and is not watched.
  /// - Complexity: O(1) once indexed; O(n) the first time.
  func sourceText(of doc: OpenDocument) throws(ResponseError) -> SourceText {
    switch doc.text {
    case .indexed(let text):
      return text
    case .bytes(let bytes):
      let text = SourceText(bytes)
      doc.text = .indexed(text)
      return text
    case .file(let path, let stamp):
      if let text = try Self.read(path, as: stamp) {
        doc.text = .indexed(text)
        return text
      }
      if doc.watched {
        log.info("\(path) changed since it was read: reloading it before using its text")
        watchedFileChanged(doc.uri)
        if case .file(let path, let stamp) = doc.text, let text = try Self.read(path, as: stamp) {
          doc.text = .indexed(text)
          return text
        }
      }
      throw ResponseError(
        code: .fileError,
        message: "cannot use the text of \(path) as it was read: the file changed since "
          + "(send the whole text, or open it again)")
    }
  }

  /// The bytes of the file at `path`, indexed, if it is still as it was
  /// when its stamp was `stamp`; `nil` when it changed.
  /// - Throws: `-32013` naming the path when it cannot be read.
  private static func read(_ path: String, as stamp: RegularFile.Stamp?) throws(ResponseError) -> SourceText? {
    let file = try opening(path)
    guard let stamp, file.stamp() == stamp else { return nil }
    let bytes: [UInt8]
    do {
      bytes = try file.readAll()
    } catch {
      throw ResponseError(code: .fileError, message: error.description)
    }
    // Rewritten while it was read: not the file as read either.
    guard file.stamp() == stamp else { return nil }
    return SourceText(bytes)
  }

  /// Applies the host's edits to the text `doc` keeps and loads the result
  /// as `changeOutline {text}` would (PROTOCOL §9).
  ///
  /// The edits are spliced into the kept bytes in place; when the load
  /// fails (cancelled), they are undone, so nothing changes.
  /// - Throws: `-32602` naming `edits[i].range` (or `.start`, `.end`) for a
  ///   range outside the text, ending before it starts or splitting a
  ///   character, and then nothing is applied; `-32013` as
  ///   ``sourceText(of:)``; `-32800` when cancelled.
  func change(_ doc: OpenDocument, applying edits: [ContentChange], cancellation: CancellationToken)
    throws(ResponseError) -> ChangeOutlineRequest.Result
  {
    var text = try sourceText(of: doc)
    // The document lets go of its copy, so that the bytes are changed in place.
    doc.text = .bytes([])
    let splices: [SourceText.Splice]
    do {
      splices = try text.apply(edits, in: positionEncoding)
    } catch {
      doc.text = .indexed(text)
      let part = error.part == .range ? "" : ".\(error.part.rawValue)"
      throw .invalidParams("\"edits[\(error.index)].range\(part)\" \(error.reason)")
    }
    do {
      return try reload(doc, from: .indexed(text), cancellation: cancellation)
    } catch {
      text.revert(splices)
      doc.text = .indexed(text)
      throw error
    }
  }
}
