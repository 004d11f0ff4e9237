// swift-tools-version:6.0
// Chain's benchmark clients: one executable per client, each run in its own process by
// `Benchmarks/run` against a private nginx on 127.0.0.1. A separate package (not targets of the
// root package) so that `swift build`/`swift test` of the library never compiles benchmarks, and
// so its release build lives in `Benchmarks/.build` without colliding with the root's `.build`.
import Foundation
import PackageDescription

// The root package's identity is the name of its folder (SwiftPM derives a path dependency's
// identity from its last path component); CI clones into folders with other names, so compute it.
let rootDirectory = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent()
let root = rootDirectory.lastPathComponent.lowercased()

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

var targets: [Target] = [
    // What every Swift client shares: command line, scenarios, timing, the JSON result line,
    // peak RSS, and the `User` model of the 100 KB payload.
    .target(name: "BenchSupport", swiftSettings: strict),
    .executableTarget(name: "bench-urlsession", dependencies: ["BenchSupport"], swiftSettings: strict),
    .executableTarget(name: "bench-core",
                      dependencies: ["BenchSupport", .product(name: "HTTPCore", package: root),
                                     .product(name: "CurlTransport", package: root),
                                     .product(name: "HTTPFeatures", package: root)],
                      swiftSettings: strict),
    .executableTarget(name: "bench-chain",
                      dependencies: ["BenchSupport", .product(name: "Chain", package: root)],
                      swiftSettings: strict),
    .executableTarget(name: "bench-afstyle",
                      dependencies: ["BenchSupport", .product(name: "AFStyle", package: root)],
                      swiftSettings: strict),
]

// `DecodeBench/` is a colleague's program; build it only once it has sources, so this package
// builds before and after it lands.
let decodeBench = URL(fileURLWithPath: Context.packageDirectory).appendingPathComponent("DecodeBench")
let decodeBenchSources = (try? FileManager.default.subpathsOfDirectory(atPath: decodeBench.path)) ?? []
if decodeBenchSources.contains(where: { $0.hasSuffix(".swift") }) {
    targets.append(.executableTarget(name: "bench-decode", dependencies: ["BenchSupport", .product(name: "FastJSON", package: root)],
                                     path: "DecodeBench", swiftSettings: strict))
}

let package = Package(
    name: "ChainBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "..")],
    targets: targets,
    swiftLanguageModes: [.v6]
)
