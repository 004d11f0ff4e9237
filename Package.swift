// swift-tools-version:6.0
// Chain — a Swift HTTP client for Linux built directly on libcurl.
// Layers (an arrow never points up; Docs/Architecture.md has the map):
//   HTTPCore (values, pipeline) → CurlTransport (libcurl engine), Cache (disk cache) and
//   HTTPFeatures (decoding, hooks, retry, redaction), side by side → Chain / AFStyle → ChainTesting, Samples.
import PackageDescription

// Swift 6 language mode (strict concurrency) for every target; warnings are treated as errors by `make`.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "Chain",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Chain", targets: ["Chain"]),
        .library(name: "AFStyle", targets: ["AFStyle"]),
        .library(name: "Cache", targets: ["Cache"]),
        .library(name: "HTTPCore", targets: ["HTTPCore"]),
        .library(name: "CurlTransport", targets: ["CurlTransport"]),
        .library(name: "HTTPFeatures", targets: ["HTTPFeatures"]),
        .library(name: "Cookies", targets: ["Cookies"]),
        .library(name: "FastJSON", targets: ["FastJSON"]),
        .library(name: "SampleServer", targets: ["SampleServer"]),
        // For the tests of apps that use Chain or AFStyle: a mock server, a stub table, cassettes.
        .library(name: "ChainTesting", targets: ["ChainTesting"]),
        // For model files ported from HandyJSON: `import ChainModels` in place of theirs.
        .library(name: "ChainModels", targets: ["ChainModels"]),
        .executable(name: "sample-server", targets: ["sample-server"]),
    ],
    targets: [
        // libcurl binding: typed, non-variadic wrappers (Swift cannot call C varargs).
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("curl")]),
        // zlib for the sample server's gzip routes (a dependency of libcurl4-openssl-dev).
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        // libpsl, the public-suffix list for cookie domains (libpsl-dev, as libcurl uses it).
        .systemLibrary(name: "CPSL", path: "Sources/CPSL"),
        // Pure-Swift digests: SHA-256 for the cache (file names, checksums) and the sample server; MD5, MD4 and HMAC-MD5 for its Digest and NTLM routes.
        .target(name: "Digest", swiftSettings: strict),
        .target(name: "FastJSON", swiftSettings: strict),
        // Values and the pipeline; the transport sits behind its `Transport` protocol.
        .target(name: "HTTPCore", swiftSettings: strict),
        // The libcurl engine: package-level, public only in how an `HTTPClient` is made.
        .target(name: "CurlTransport", dependencies: ["HTTPCore", "CCurl"], swiftSettings: strict),
        .target(name: "Cache", dependencies: ["HTTPCore", "Digest", "FastJSON"], swiftSettings: strict),
        // What apps build on the pipeline: decoding, the shipped hooks, retry, token refresh, redaction.
        .target(name: "HTTPFeatures", dependencies: ["HTTPCore", "FastJSON"], swiftSettings: strict),
        // The cookie jar (RFC 6265), plugged into the pipeline through `CookieStorage`.
        .target(name: "Cookies", dependencies: ["HTTPCore", "CPSL"], swiftSettings: strict),
        .target(name: "Chain", dependencies: ["HTTPCore", "CurlTransport", "Cache", "HTTPFeatures", "Cookies", "FastJSON"],
                swiftSettings: strict),
        .target(name: "AFStyle", dependencies: ["HTTPCore", "CurlTransport", "Cache", "HTTPFeatures", "Cookies", "FastJSON"],
                swiftSettings: strict),
        .target(name: "SampleServer", dependencies: ["Digest", "CZlib"], swiftSettings: strict),
        .executableTarget(name: "sample-server", dependencies: ["SampleServer"], swiftSettings: strict),
        // OpenSSL (libssl-dev) for MockServer's TLS: a certificate made at start and a TLS front.
        .target(name: "CChainTLS", linkerSettings: [.linkedLibrary("ssl"), .linkedLibrary("crypto")]),
        // The testing kit: above both front ends, never below them.
        .target(name: "ChainTesting", dependencies: ["Chain", "AFStyle", "HTTPCore", "HTTPFeatures", "SampleServer", "CChainTLS"],
                swiftSettings: strict),
        // HandyJSON-style models on Codable, decoded tolerantly by both front ends.
        .target(name: "ChainModels", dependencies: ["Chain", "AFStyle", "HTTPCore", "HTTPFeatures", "FastJSON"],
                swiftSettings: strict),

        // Samples: one program per scenario, each against the bundled sample server.
        // The scenarios' code lives in one library so the demo, each program and a test share it.
        .target(name: "SampleScenarios", dependencies: ["Chain", "AFStyle", "ChainModels", "SampleServer"], path: "Samples/Scenarios",
                swiftSettings: strict),
        .executableTarget(name: "demo", dependencies: ["SampleScenarios"], path: "Samples/Demo", swiftSettings: strict),
        .executableTarget(name: "login-and-users", dependencies: ["SampleScenarios"], path: "Samples/LoginAndUsers",
                          swiftSettings: strict),
        .executableTarget(name: "envelope", dependencies: ["SampleScenarios"], path: "Samples/Envelope", swiftSettings: strict),
        .executableTarget(name: "offline-cache", dependencies: ["SampleScenarios"], path: "Samples/OfflineCache",
                          swiftSettings: strict),
        .executableTarget(name: "rank-list", dependencies: ["SampleScenarios"], path: "Samples/RankList", swiftSettings: strict),
        .executableTarget(name: "afstyle-demo", dependencies: ["SampleScenarios"], path: "Samples/AFStyleDemo",
                          swiftSettings: strict),
        .executableTarget(name: "unix-socket", dependencies: ["SampleScenarios"], path: "Samples/UnixSocket",
                          swiftSettings: strict),
        .executableTarget(name: "session", dependencies: ["SampleScenarios"], path: "Samples/Session", swiftSettings: strict),
        .executableTarget(name: "streaming", dependencies: ["SampleScenarios"], path: "Samples/Streaming",
                          swiftSettings: strict),
        .executableTarget(name: "porting", dependencies: ["SampleScenarios"], path: "Samples/Porting", swiftSettings: strict),

        // Helpers shared by the test targets (not a test target itself, not a product).
        .target(name: "TestSupport", dependencies: ["HTTPCore", "SampleServer"], path: "Tests/TestSupport",
                exclude: ["tls_relay.py"], swiftSettings: strict),
        .testTarget(name: "DigestTests", dependencies: ["Digest"]),
        .testTarget(name: "SampleServerTests", dependencies: ["SampleServer", "Digest"]),
        .testTarget(name: "HTTPCoreTests", dependencies: ["TestSupport", "HTTPCore", "CurlTransport", "HTTPFeatures", "Cache", "SampleServer", "Digest"]),
        .testTarget(name: "CookiesTests", dependencies: ["TestSupport", "Cookies", "HTTPCore"]),
        .testTarget(name: "FastJSONTests", dependencies: ["TestSupport", "FastJSON"]),
        .testTarget(name: "CacheTests", dependencies: ["TestSupport", "Cache", "HTTPCore", "CurlTransport", "HTTPFeatures", "SampleServer"]),
        .testTarget(name: "ChainTests", dependencies: ["TestSupport", "Chain", "ChainTesting", "SampleServer"]),
        .testTarget(name: "AFStyleTests", dependencies: ["TestSupport", "AFStyle", "SampleServer", "Digest", "ChainTesting"]),
        .testTarget(name: "SamplesTests", dependencies: ["SampleScenarios", "SampleServer"]),
        // The cassette of the README's XCTest example is read by path, not as a bundle resource.
        .testTarget(name: "ChainTestingTests", dependencies: ["TestSupport", "ChainTesting", "Chain", "AFStyle", "SampleScenarios", "SampleServer"],
                    exclude: ["Readme/Cassettes"]),
        .testTarget(name: "ChainModelsTests", dependencies: ["TestSupport", "ChainModels", "ChainTesting", "Chain", "AFStyle", "FastJSON", "SampleServer"]),
        // The same calls through both front ends: the hook event streams and cache deliveries must match.
        .testTarget(name: "FrontEndParityTests", dependencies: ["TestSupport", "Chain", "AFStyle", "SampleServer"]),
        .testTarget(name: "HardeningTests", dependencies: ["TestSupport", "Chain", "AFStyle", "Cache", "Cookies", "HTTPCore", "CurlTransport", "HTTPFeatures", "SampleServer", "Digest"]),
        // Real outside peers on loopback: Debian's nginx (HTTP/2, mutual TLS, pinning), tinyproxy, dante.
        .testTarget(name: "TransportReachTests", dependencies: ["TestSupport", "Chain", "AFStyle", "Cache", "HTTPCore", "CurlTransport", "HTTPFeatures", "SampleServer", "Digest"]),
    ],
    swiftLanguageModes: [.v6]
)
