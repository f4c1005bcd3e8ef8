import OutlineModel

/// One YAML node of a ``NodeTree``: 32 bytes, no references.
///
/// Nodes are stored in document order (pre-order); a collection's children
/// follow it, and `next` is the index just past its subtree.
struct Node {
  enum Kind: UInt8 {
    case scalar
    case sequence
    case mapping
    /// An alias; `link` is the index of the anchored node (never an alias).
    case alias
  }

  var kind: Kind
  /// A scalar written plain (no quotes, no block style, no `!!str` tag).
  var plain: Bool
  var startLine: Int32
  var startColumn: Int32
  var endLine: Int32
  var endColumn: Int32
  /// Scalar: offset of its bytes in the arena. Collection: index past its
  /// subtree. Alias: index of its target.
  var link: Int
  /// Scalar: byte count. Collection: number of children (keys and values).
  var count: Int32

  var range: SourceRange {
    SourceRange(
      start: SourcePosition(line: Int(startLine), column: Int(startColumn)),
      end: SourcePosition(line: Int(endLine), column: Int(endColumn)))
  }

  /// The index of the node after this one and its subtree.
  func next(after index: Int) -> Int {
    kind == .sequence || kind == .mapping ? link : index + 1
  }
}

/// A YAML document as flat arrays: nodes in document order and the bytes of
/// all scalars in one arena. Aliases stay links, so a tree's size is that of
/// its text, while the limits are checked on the expanded size.
struct NodeTree {
  var nodes: [Node] = []
  var arena: [UInt8] = []
  /// Index of the root node, or `nil` when the stream has no document.
  var root: Int? = nil
}

/// Why reading the event stream stopped early.
enum BuildStop: Error {
  case cancelled
  /// A diagnostic after which the tree is incomplete (syntax, limits).
  case fatal(Diagnostic)
}

/// Builds a ``NodeTree`` from libyaml's events in one pass, counting nodes
/// and depth with aliases expanded: each anchored node's expanded size and
/// height are known when it ends, so an alias is charged in O(1), without
/// expanding anything.
struct TreeBuilder {
  private struct Frame {
    var node: Int
    var size: Int
    var height: Int
    var anchor: String?
  }

  private struct Anchor {
    var node: Int
    var size: Int
    var height: Int
    var complete: Bool
  }

  var maxNodes: Int
  var maxDepth: Int
  /// Non-fatal problems (undefined aliases, a second document).
  var diagnostics: [Diagnostic] = []
  /// Nodes that stand in for a bad alias, already diagnosed.
  var placeholders: [Int] = []
  private var tree = NodeTree()
  private var frames: [Frame] = []
  private var anchors: [String: Anchor] = [:]
  private var total = 0

  init(maxNodes: Int, maxDepth: Int) {
    self.maxNodes = min(max(maxNodes, 0), Int.max / 4)
    self.maxDepth = max(maxDepth, 0)
  }

  /// Reads every event of `parser`.
  ///
  /// - Throws: ``BuildStop``.
  mutating func build(
    _ parser: EventParser, inputSize: Int, shouldCancel: (() -> Bool)?, progress: ((Double) -> Void)?
  ) throws(BuildStop) -> NodeTree {
    // Reserved, not touched: pages are only mapped as nodes arrive, and the
    // arrays never move while they grow (an event is about 8 bytes of text).
    tree.nodes.reserveCapacity(min(inputSize / 4 + 16, maxNodes + 1))
    tree.arena.reserveCapacity(inputSize + 16)
    var documents = 0
    var countdown = 4096
    var lastReported = 0.0
    while true {
      countdown -= 1
      if countdown == 0 {
        countdown = 4096
        if let shouldCancel, shouldCancel() { throw .cancelled }
        if let progress, inputSize > 0 {
          let fraction = min(1, Double(parser.bytesConsumed) / Double(inputSize))
          if fraction - lastReported >= 0.01 {
            lastReported = fraction
            progress(fraction)
          }
        }
      }
      let kind: EventKind
      do {
        kind = try parser.next()
      } catch {
        throw .fatal(
          Diagnostic(
            range: SourceRange(
              start: SourcePosition(line: error.line, column: error.column),
              end: SourcePosition(line: error.line, column: error.column)),
            severity: .error, code: "syntax", message: error.message))
      }
      switch kind {
      case .streamStart, .documentEnd:
        continue
      case .streamEnd:
        return tree
      case .documentStart:
        documents += 1
        if documents > 1 {
          let at = SourcePosition(line: parser.startLine, column: parser.startColumn)
          diagnostics.append(
            Diagnostic(
              range: SourceRange(start: at, end: SourcePosition(line: parser.endLine, column: parser.endColumn)),
              severity: .error, code: "multiple-documents", message: "a file holds one YAML document, found a second"
            ))
          return tree
        }
      case .scalar:
        let bytes = parser.scalarBytes
        let offset = tree.arena.count
        tree.arena.append(contentsOf: bytes)
        let plain = parser.scalarIsPlain && !parser.scalarIsTaggedString
        let index = try add(
          makeNode(.scalar, parser, plain: plain, link: offset, count: Int32(truncatingIfNeeded: bytes.count)))
        if let anchor = parser.anchor {
          anchors[anchor] = Anchor(node: index, size: 1, height: 0, complete: true)
        }
        finish(size: 1, height: 0)
      case .sequenceStart, .mappingStart:
        let node = makeNode(kind == .sequenceStart ? .sequence : .mapping, parser, plain: false, link: 0, count: 0)
        if frames.count + 1 > maxDepth {
          throw .fatal(
            Diagnostic(
              range: node.range, severity: .error, code: "too-deep",
              message: "the document nests deeper than \(maxDepth) levels"))
        }
        let index = try add(node)
        let anchor = parser.anchor
        if let anchor {
          anchors[anchor] = Anchor(node: index, size: 0, height: 0, complete: false)
        }
        frames.append(Frame(node: index, size: 1, height: 1, anchor: anchor))
      case .sequenceEnd, .mappingEnd:
        let frame = frames.removeLast()
        tree.nodes[frame.node].link = tree.nodes.count
        tree.nodes[frame.node].endLine = Int32(truncatingIfNeeded: parser.endLine)
        tree.nodes[frame.node].endColumn = Int32(truncatingIfNeeded: parser.endColumn)
        if let anchor = frame.anchor, anchors[anchor]?.node == frame.node {
          anchors[anchor] = Anchor(node: frame.node, size: frame.size, height: frame.height, complete: true)
        }
        finish(size: frame.size, height: frame.height)
      case .alias:
        let name = parser.aliasName
        var node = makeNode(.alias, parser, plain: false, link: 0, count: 0)
        guard let target = anchors[name], target.complete else {
          let known = anchors[name] != nil
          diagnostics.append(
            Diagnostic(
              range: node.range, severity: .error, code: "syntax",
              message: known ? "alias \"\(name)\" refers to a node that contains it" : "undefined alias \"\(name)\""))
          // Stands in as an empty scalar so that the rest can be checked.
          node.kind = .scalar
          node.plain = true
          node.link = tree.arena.count
          placeholders.append(try add(node))
          finish(size: 1, height: 0)
          continue
        }
        if frames.count + target.height > maxDepth {
          throw .fatal(
            Diagnostic(
              range: node.range, severity: .error, code: "too-deep",
              message: "alias \"\(name)\" nests the document deeper than \(maxDepth) levels"))
        }
        if total + target.size > maxNodes {
          throw .fatal(
            Diagnostic(
              range: node.range, severity: .error, code: "too-many-nodes",
              message: "alias \"\(name)\" expands the document past \(maxNodes) nodes"))
        }
        total += target.size - 1  // `add` charges the last one.
        node.link = target.node
        _ = try add(node)
        finish(size: target.size, height: target.height)
      }
    }
  }

  private func makeNode(_ kind: Node.Kind, _ parser: EventParser, plain: Bool, link: Int, count: Int32) -> Node {
    Node(
      kind: kind, plain: plain,
      startLine: Int32(truncatingIfNeeded: parser.startLine),
      startColumn: Int32(truncatingIfNeeded: parser.startColumn),
      endLine: Int32(truncatingIfNeeded: parser.endLine),
      endColumn: Int32(truncatingIfNeeded: parser.endColumn),
      link: link, count: count)
  }

  /// Appends a node, charging one node against the limit.
  private mutating func add(_ node: Node) throws(BuildStop) -> Int {
    total += 1
    if total > maxNodes {
      throw .fatal(
        Diagnostic(
          range: node.range, severity: .error, code: "too-many-nodes",
          message: "the document has more than \(maxNodes) nodes"))
    }
    let index = tree.nodes.count
    tree.nodes.append(node)
    if frames.isEmpty, tree.root == nil {
      tree.root = index
    } else if !frames.isEmpty {
      tree.nodes[frames[frames.count - 1].node].count &+= 1
    }
    return index
  }

  /// Adds a finished child's expanded size and height to its parent.
  private mutating func finish(size: Int, height: Int) {
    guard !frames.isEmpty else { return }
    let last = frames.count - 1
    frames[last].size += size
    frames[last].height = max(frames[last].height, height + 1)
  }
}
