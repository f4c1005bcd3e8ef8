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
    // fontconfig, FreeType, HarfBuzz and ICU, from Debian, through pkg-config: the font engine's C.
    .systemLibrary(name: "CFontconfig", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig-dev"])]),
    .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
    .systemLibrary(name: "CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
    .systemLibrary(name: "CICU", pkgConfig: "icu-uc", providers: [.apt(["libicu-dev"])]),
    // Unversioned entry points into ICU's C API (ICU renames its symbols per release).
    .target(name: "CICUShim", dependencies: ["CICU"]),
    // simdjson, from Debian's libsimdjson-dev, through pkg-config (C++).
    .systemLibrary(
      name: "CLibSimdJSON",
      pkgConfig: "simdjson",
      providers: [.apt(["libsimdjson-dev"])]
    ),
    // simdjson's DOM parser behind a C header: the only code that sees C++.
    // Debian builds the library with threads (its pkg-config cflags say so, and SwiftPM drops -D flags
    // from pkg-config): the shim sees simdjson's headers as the library was built.
    .target(
      name: "CSimdJSON", dependencies: ["CLibSimdJSON"],
      cxxSettings: [.define("SIMDJSON_THREADS_ENABLED", to: "1")]),
    // The outline model: plain Swift, no JSON, no C.
    .target(name: "OutlineModel"),
    // Unit "font": line breaking in real fonts, as a browser does; the only target that sees the font C libraries.
    .target(
      name: "OutlineFont", dependencies: ["OutlineModel", "CFontconfig", "CFreeType", "CHarfBuzz", "CICUShim"]),
    // The YAML group-definition loader, over libyaml.
    .target(name: "OutlineYAML", dependencies: ["OutlineModel", "CLibYAML"]),
    // JSON-RPC 2.0 with LSP framing: knows nothing of outlines.
    .target(name: "JSONRPC", dependencies: ["CSimdJSON"]),
    // The server: wires the model to the transport.
    .target(name: "OutlineServer", dependencies: ["OutlineModel", "OutlineYAML", "OutlineFont", "JSONRPC"]),
    .executableTarget(name: "outline-server", dependencies: ["OutlineServer"]),
    // Prints the speed of `auto` layout, in cells and in fonts: swift run -c release layout-bench [FILE].
    .executableTarget(name: "layout-bench", dependencies: ["OutlineModel", "OutlineYAML", "OutlineFont"]),
    // The benchmark: `swift run -c release outline-bench` (docs/performance.md).
    .executableTarget(
      name: "outline-bench", dependencies: ["OutlineModel", "OutlineYAML", "JSONRPC", "OutlineServer"]),
    .testTarget(name: "OutlineModelTests", dependencies: ["OutlineModel"]),
    .testTarget(name: "OutlineYAMLTests", dependencies: ["OutlineYAML"]),
    .testTarget(name: "OutlineFontTests", dependencies: ["OutlineFont"]),
    .testTarget(name: "JSONRPCTests", dependencies: ["JSONRPC"]),
    .testTarget(name: "OutlineServerTests", dependencies: ["OutlineServer", "OutlineTestSupport"]),
    // What the server tests share: one client interface, in process and over a spawned binary.
    .target(name: "OutlineTestSupport", dependencies: ["JSONRPC", "OutlineServer"], path: "Tests/OutlineTestSupport"),
    .testTarget(name: "EndToEndTests", dependencies: ["JSONRPC", "OutlineTestSupport", "outline-server"]),
  ]
)
