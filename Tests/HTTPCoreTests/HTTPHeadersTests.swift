import CurlTransport
import HTTPCore
import HTTPFeatures
import Testing

@Suite("HTTPHeaders")
struct HTTPHeadersTests {
    @Test func lookupIgnoresCaseAndKeepsOrder() {
        var headers: HTTPHeaders = ["Content-Type": "text/plain", "X-A": "1", "Set-Cookie": "a=1"]
        headers.add(name: "set-cookie", value: "b=2")
        #expect(headers["content-type"] == "text/plain")
        #expect(headers["CONTENT-TYPE"] == "text/plain")
        #expect(headers.values(for: "Set-Cookie") == ["a=1", "b=2"])
        #expect(headers.fields.map(\.name) == ["Content-Type", "X-A", "Set-Cookie", "set-cookie"])
    }

    @Test func settingReplacesEveryFieldOfThatName() {
        var headers: HTTPHeaders = ["Accept": "a", "X": "1", "accept": "b"]
        headers["ACCEPT"] = "c"
        #expect(headers.fields.map(\.value) == ["c", "1"])
        headers["x"] = nil
        #expect(headers.count == 1)
    }

    @Test func mergingLetsTheOtherListWin() {
        let base: HTTPHeaders = ["Accept": "a", "User-Agent": "u"]
        let merged = base.merging(["accept": "b", "X-New": "n"])
        #expect(merged["Accept"] == "b")
        #expect(merged["User-Agent"] == "u")
        #expect(merged.values(for: "accept") == ["b"])
    }
}
