import CurlTransport
import Foundation
import HTTPCore
import HTTPFeatures
import Testing

/// A proxy that refuses to tunnel (`CONNECT` answered 407 or 403) is named in the error with
/// its status (a 407 as ``NetworkError/Kind/proxyAuthenticationRequired(proxy:)``), instead of "the connection to the origin was lost": libcurl keeps the proxy's
/// head from the header callback (`CURLOPT_SUPPRESS_CONNECT_HEADERS`), so its status is read
/// with `CURLINFO_HTTP_CONNECTCODE`. The hostile peer plays the proxy
/// (`Tests/HostilePeer/scenarios_parse2.py`).
///
/// libcurl reads the proxy from the environment of the whole process, so the transfers run in a
/// child process of this test bundle with `https_proxy` naming the peer: set here, it would
/// route the suites running in parallel through the peer too.
@Suite("A proxy's refusal", .timeLimit(.minutes(1)))
struct ProxyRefusalTests {
    static let childVariable = "CHAIN_PROXY_REFUSAL_MARKER"

    @Test(.enabled(if: ProcessInfo.processInfo.environment[childVariable] == nil))
    func aProxyThatRefusesTheTunnelIsNamedWithItsStatus() async throws {
        guard let peer = await ParsePeer.shared else { throw TestFailure("the hostile peer did not start") }
        let directory = try temporaryDirectory("proxy-refusal")
        defer { try? FileManager.default.removeItem(at: directory) }
        let marker = directory.appendingPathComponent("passed")
        let proxy = "http://127.0.0.1:\(peer.port)"
        var environment = ProcessInfo.processInfo.environment
        environment[Self.childVariable] = marker.path
        for name in ["https_proxy", "HTTPS_PROXY"] { environment[name] = proxy }
        for name in ["no_proxy", "NO_PROXY", "all_proxy", "ALL_PROXY"] { environment[name] = nil }
        let output = try await runThisBundle(filter: "ProxyRefusalTests/inAChildProcess", environment: environment)
        #expect(FileManager.default.fileExists(atPath: marker.path), "the child's checks did not pass:\n\(output)")
    }

    /// The transfers themselves, in the child process whose `https_proxy` is the peer.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[childVariable] != nil))
    func inAChildProcess() async throws {
        let marker = try #require(ProcessInfo.processInfo.environment[Self.childVariable])
        for (host, status) in [("proxy-407.test", 407), ("proxy-403.test", 403)] {
            let url = try #require(URL(string: "https://\(host)/"))
            let result = await Clients.faults.result(HTTPRequest(url: url))
            let error = try #require(result.failure, "\(host) succeeded")
            print("\(host): \(error.debugDescription)")
            try #require(error.message.contains("proxy 127.0.0.1:"), "\(error.message)")
            try #require(error.message.contains(host), "\(error.message)")
            if status == 407 {
                guard case .proxyAuthenticationRequired(let proxy) = error.kind else {
                    throw TestFailure("\(host): \(error.kind)")
                }
                try #require(proxy.hasPrefix("127.0.0.1:"), "\(proxy)")
                try #require(error.message.contains("credentials"), "\(error.message)")
            } else {
                try #require(error.kind == .cannotConnect, "\(host): \(error.kind)")
                try #require(error.message.contains("\(status)"), "\(error.message)")
            }
        }
        try Data("passed".utf8).write(to: URL(fileURLWithPath: marker))
    }
}
