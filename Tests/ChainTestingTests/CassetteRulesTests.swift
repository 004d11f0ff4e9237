import Foundation
import Testing
@testable import ChainTesting

/// The pure rules behind a cassette: canonical URLs and bodies, the order of replays, what a
/// re-recording replaces.
@Suite("Cassette: rules")
struct CassetteRulesTests {
    @Test(arguments: [
        ("HTTP://Example.COM:80/a?b=2&a=1#top", "http://example.com/a?a=1&b=2"),
        ("https://example.com:443", "https://example.com/"),
        ("http://example.com:8080/p", "http://example.com:8080/p"),
        ("https://example.com:80/p", "https://example.com:80/p"),
        ("http://example.com/p?", "http://example.com/p"),
        ("http://example.com/P", "http://example.com/P"),
    ])
    func canonicalURLs(_ url: String, _ canonical: String) {
        #expect(CassetteMatching.default.canonicalURL(url) == canonical)
    }

    @Test func ignoredQueryParametersGoByTheirDecodedNames() {
        let matching = CassetteMatching.default.ignoringQueryParameters("ts", "sig nature")
        #expect(matching.canonicalURL("http://h/p?ts=1&q=2&sig+nature=x") == "http://h/p?q=2")
        #expect(matching.canonicalURL("http://h/p?ts=1&sig%20nature=x") == "http://h/p")
        #expect(matching.canonicalURL("http://h/p?tss=1") == "http://h/p?tss=1")
    }

    @Test func jsonBodiesCompareWithoutKeyOrderOrWhiteSpace() {
        let a = CassetteMatching.canonicalBody(Data(#"{"b":{"y":1,"x":[true,null]},"a":"s/t"}"#.utf8))
        let b = CassetteMatching.canonicalBody(Data("{\n  \"a\" : \"s\\/t\",\n  \"b\" : {\"x\" : [true, null], \"y\" : 1}\n}".utf8))
        #expect(a == b)
        #expect(CassetteMatching.canonicalBody(Data("a=1&b=2".utf8)) == Data("a=1&b=2".utf8))
        #expect(CassetteMatching.canonicalBody(Data("{broken".utf8)) == Data("{broken".utf8))
    }

    private func interaction(_ url: String, _ body: String) -> CassetteInteraction {
        CassetteInteraction(request: .init(method: "GET", url: url, headers: [], body: Data()),
                            response: .init(status: 200, httpVersion: "HTTP/1.1", headers: [], body: Data(body.utf8)))
    }

    private func body(_ interaction: CassetteInteraction?) -> String? {
        interaction.map { String(decoding: $0.response.body, as: UTF8.self) }
    }

    @Test func repeatsReplayInOrderThenTheLastAgain() {
        let file = CassetteFile(interactions: [interaction("http://h/a", "1"), interaction("http://h/b", "x"),
                                               interaction("http://h/a", "2")])
        var state = CassetteState(file: file, matching: .default)
        let a = CassetteMatching.default.key(for: .init(method: "GET", url: "http://h/a", headers: [], body: Data()))
        #expect([body(state.replay(for: a)), body(state.replay(for: a)), body(state.replay(for: a))] == ["1", "2", "2"])
        let c = CassetteMatching.default.key(for: .init(method: "GET", url: "http://h/c", headers: [], body: Data()))
        #expect(state.replay(for: c) == nil)
    }

    @Test func aNewRecordingReplacesTheFilesRecordingsInPlace() {
        let file = CassetteFile(interactions: [interaction("http://h/a", "old 1"), interaction("http://h/b", "b"),
                                               interaction("http://h/a", "old 2")])
        var state = CassetteState(file: file, matching: .default)
        let a = CassetteMatching.default.key(for: .init(method: "GET", url: "http://h/a", headers: [], body: Data()))
        state.record(interaction("http://h/a", "new 1"), key: a, replacingOldRecordings: true)
        state.record(interaction("http://h/a", "new 2"), key: a, replacingOldRecordings: true)
        #expect(state.file.interactions.map { body($0) } == ["new 1", "b", "new 2"])

        var appending = CassetteState(file: file, matching: .default)
        appending.record(interaction("http://h/a", "new"), key: a, replacingOldRecordings: false)
        #expect(appending.file.interactions.map { body($0) } == ["old 1", "b", "old 2", "new"])
    }

    @Test func aStreamedBodyMatchesAnyRecordedBody() {
        let recorded = CassetteMatching.default.key(for: .init(method: "POST", url: "http://h/u", headers: [], body: Data("abc".utf8)))
        let streamed = CassetteMatching.default.key(for: .init(method: "POST", url: "http://h/u", headers: [], body: Data()),
                                                    bodyIsKnown: false)
        let other = CassetteMatching.default.key(for: .init(method: "POST", url: "http://h/u", headers: [], body: Data("abd".utf8)))
        #expect(streamed.matches(recorded))
        #expect(!other.matches(recorded))
    }
}
