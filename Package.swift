// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "outline-server",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "outline-server", targets: ["outline-server"]),
    .executable(name: "outline-bench", targets: ["outline-bench"]),
    .library(name: "OutlineModel", targets: ["OutlineModel"]),
  ],
  targets: [
    // libyaml, from Debian's libyaml-dev, through pkg-config.
    .systemLibrary(
      name: "CLibYAML",
      pkgConfig: "yaml-0.1",
      providers: [.apt(["libyaml-dev"])]
    ),
    // simdjson, from Debian's libsimdjson-dev, through pkg-config (C++).
    .systemLibrary(
      name: "CLibSimdJSON",
      pkgConfig: "simdjson",
      providers: [.apt(["libsimdjson-dev"])]
    ),
    // simdjson's DOM parser behind a C header: the only code that sees C++.
    .target(name: "CSimdJSON", dependencies: ["CLibSimdJSON"]),
    // The outline model: plain Swift, no JSON, no C.
    .target(name: "OutlineModel"),
    // The YAML group-definition loader: the only target that sees C.
    .target(name: "OutlineYAML", dependencies: ["OutlineModel", "CLibYAML"]),
    // JSON-RPC 2.0 with LSP framing: knows nothing of outlines.
    .target(name: "JSONRPC", dependencies: ["CSimdJSON"]),
    // The server: wires the model to the transport.
    .target(name: "OutlineServer", dependencies: ["OutlineModel", "OutlineYAML", "JSONRPC"]),
    .executableTarget(name: "outline-server", dependencies: ["OutlineServer"]),
    // Prints the speed of `auto` layout: swift run -c release layout-bench [FILE].
    .executableTarget(name: "layout-bench", dependencies: ["OutlineModel", "OutlineYAML"]),
    // The benchmark: `swift run -c release outline-bench` (docs/performance.md).
    .executableTarget(name: "outline-bench", dependencies: ["OutlineModel", "OutlineYAML", "JSONRPC"]),
    .testTarget(name: "OutlineModelTests", dependencies: ["OutlineModel"]),
    .testTarget(name: "OutlineYAMLTests", dependencies: ["OutlineYAML"]),
    .testTarget(name: "JSONRPCTests", dependencies: ["JSONRPC"]),
    .testTarget(name: "OutlineServerTests", dependencies: ["OutlineServer"]),
    .testTarget(name: "EndToEndTests", dependencies: ["JSONRPC", "outline-server"]),
  ],
  cxxLanguageStandard: .cxx17
)
