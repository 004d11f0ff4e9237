// swift-tools-version:6.0
// Chain's libFuzzer targets: one executable per input surface, built and run by
// `scripts/hardening/fuzz` (`make fuzz`) with `-sanitize=fuzzer,address`.
//
// A separate package so that `swift build`/`swift test` of the library never compiles them
// (they link libFuzzer, which only exists with `-sanitize=fuzzer`) and so its build lives
// in `Fuzz/.build`. The targets reach internal parsers (`CurlResponseHeadParser`,
// `CacheMetadata`) with `@testable import`, which works because the script builds every
// module with `-enable-testing`; fuzzing through the public API instead would mean a socket
// per input for the header parser and a file per input for the cache reader, three orders of
// magnitude fewer executions per second for the same code.
import Foundation
import PackageDescription

// The root package's identity is the name of its folder (SwiftPM derives a path dependency's
// identity from its last path component); CI clones into folders with other names, so compute it.
let root = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent.lowercased()

func fuzzTarget(_ name: String, _ products: [String]) -> Target {
    .executableTarget(name: name, dependencies: ["FuzzDriver"] + products.map { .product(name: $0, package: root) },
                      swiftSettings: [.enableUpcomingFeature("ExistentialAny")])
}

let package = Package(
    name: "ChainFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "..")],
    targets: [
        // The declaration of libFuzzer's driver, which each target's main.swift calls.
        .target(name: "FuzzDriver"),
        // Response heads as libcurl hands them over, line by line; then what reads the
        // headers afterwards (content type, charset, Cache-Control, dates, freshness).
        fuzzTarget("fuzz-response-head", ["HTTPCore", "CurlTransport", "Cache", "HTTPFeatures"]),
        // Envelopes, lenient scalars, serializers and validation on arbitrary bodies, with
        // both JSON backends (FastJSON and Foundation) compared.
        fuzzTarget("fuzz-decoding", ["HTTPCore", "HTTPFeatures"]),
        // Parameter trees (from bytes and from arbitrary JSON) through the query, form and
        // JSON encoders and the curl renderer.
        fuzzTarget("fuzz-parameters", ["HTTPCore", "HTTPFeatures"]),
        // Cache metadata files: unframing, checksum, JSON, validation, the entry and the
        // freshness rules that read it.
        fuzzTarget("fuzz-cache-entry", ["HTTPCore", "Cache"]),
    ],
    swiftLanguageModes: [.v6]
)
