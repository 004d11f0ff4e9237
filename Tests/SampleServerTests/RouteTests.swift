import Digest
@testable import SampleServer
import Testing

/// The routes other modules' tests rely on.
@Suite("SampleServer routes")
struct RouteTests {
    @Test("login, user lookup and query of the sample API")
    func sampleAPI() throws {
        let server = try SampleServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)

        let form = try client.request("POST", "/account/login", headers: ["Content-Type: application/x-www-form-urlencoded"],
                                      body: Array("username=wiki&password=secret".utf8))
        #expect(form.status == 200)
        #expect(form.json == ["id": "101", "name": "wiki", "age": 18, "email": "wiki@example.com"])

        let json = try client.request("POST", "/account/login", headers: ["Content-Type: application/json"],
                                      body: Array(#"{"username":"wiki","password":"secret"}"#.utf8))
        #expect(json.json["id"]?.stringValue == "101")

        let wrong = try client.request("POST", "/account/login", headers: ["Content-Type: application/json"],
                                       body: Array(#"{"username":"wiki","password":"nope"}"#.utf8))
        #expect(wrong.status == 401)
        #expect(wrong.json == ["error": "invalid username or password", "error_code": "1001"])

        let missing = try client.request("POST", "/account/login", headers: ["Content-Type: application/x-www-form-urlencoded"],
                                         body: Array("username=wiki".utf8))
        #expect(missing.status == 400)
        #expect(missing.json["error_code"] != nil)

        let unknown = try client.request("GET", "/user/999")
        #expect(unknown.status == 404)
        #expect(unknown.json == ["error": "user not found", "error_code": "1004"])

        let query = try client.request("GET", "/user/query?q=i")
        #expect(query.json.arrayValue?.compactMap { $0["name"]?.stringValue } == ["wiki", "alice"])
    }

    @Test("envelopes and the nested ranking list")
    func envelopes() throws {
        let server = try SampleServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let user = try client.request("GET", "/envelope/user/102")
        #expect(user.json["errcode"]?.intValue == 0)
        #expect(user.json["data"]?["name"]?.stringValue == "alice")
        let missing = try client.request("GET", "/envelope/user/1")
        #expect(missing.status == 200)
        #expect(missing.json == ["errcode": 40004, "errmsg": "user not found", "data": .null])
        #expect(try client.request("GET", "/envelope/fail").json["errcode"]?.intValue == 40001)
        #expect(try client.request("GET", "/envelope/fail-string-code").json["errcode"]?.stringValue == "40001")
        #expect(try client.request("POST", "/envelope/result").json["data"]?["result"]?.stringValue == "1")

        let rank = try client.request("GET", "/rank/list").json
        #expect(rank["data"]?["message"]?.stringValue == "成功")
        let items = rank["data"]?["returnData"]?["rankinglist"]?.arrayValue ?? []
        #expect(items.count >= 4)
        #expect(items.contains { $0["argValue"]?.intValue != nil })
        #expect(items.contains { $0["argValue"]?.stringValue != nil })
        #expect(try client.request("GET", "/rank/fail").json["data"]?["stateCode"]?.intValue == 0)
    }

    @Test("status codes, redirects and response headers")
    func statusAndRedirects() throws {
        let server = try SampleServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let teapot = try client.request("GET", "/status/418")
        #expect(teapot.status == 418)
        #expect(teapot.json["status"]?.intValue == 418)
        let noContent = try client.request("GET", "/status/204")
        #expect(noContent.status == 204)
        #expect(noContent.header("Content-Length") == nil)
        #expect(try client.request("GET", "/status/abc").status == 400)

        let chain = try client.request("GET", "/redirect/2")
        #expect(chain.status == 302)
        #expect(chain.header("Location") == "/redirect/1")
        #expect(try client.request("GET", "/redirect/1").header("Location") == "/get")
        let anywhere = try client.request("GET", "/redirect-to?url=file%3A%2F%2F%2Fetc%2Fpasswd&status_code=307")
        #expect(anywhere.status == 307)
        #expect(anywhere.header("Location") == "file:///etc/passwd")
        #expect(try client.request("GET", "/redirect-loop").header("Location") == "/redirect-loop")

        let custom = try client.request("GET", "/response-headers?X-One=1&X-Two=two%20words")
        #expect(custom.header("X-One") == "1")
        #expect(custom.header("X-Two") == "two words")
        #expect(try client.request("GET", "/response-headers?Content-Length=1").status == 400)
    }

    @Test("ETag and Last-Modified validators")
    func caching() throws {
        let server = try SampleServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let fresh = try client.request("GET", "/etag/abc")
        #expect(fresh.status == 200)
        #expect(fresh.header("ETag") == "\"abc\"")
        #expect(fresh.header("Cache-Control") == "max-age=60")
        #expect(try client.request("GET", "/etag/abc", headers: ["If-None-Match: W/\"x\", \"abc\""]).status == 304)
        #expect(try client.request("GET", "/etag/abc", headers: ["If-None-Match: \"other\""]).status == 200)

        let cache = try client.request("GET", "/cache")
        #expect(cache.header("Last-Modified") == "Wed, 21 Oct 2015 07:28:00 GMT")
        let revalidated = try client.request("GET", "/cache", headers: ["If-Modified-Since: \(cache.header("Last-Modified") ?? "")"])
        #expect(revalidated.status == 304)
        #expect(revalidated.body.isEmpty)
        #expect(try client.request("GET", "/cache/30").header("Cache-Control") == "public, max-age=30")
        #expect(server.acceptedConnections == 1)
    }

    @Test("gzip, deflate and the gzip bomb are compressed")
    func compression() throws {
        let server = try SampleServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let gzip = try client.request("GET", "/gzip")
        #expect(gzip.header("Content-Encoding") == "gzip")
        #expect(Array(gzip.body.prefix(2)) == [0x1f, 0x8b])
        let deflate = try client.request("GET", "/deflate")
        #expect(deflate.header("Content-Encoding") == "deflate")
        #expect(deflate.body.first == 0x78)
        let bomb = try client.request("GET", "/gzip-bomb?size=10000000")
        #expect(bomb.header("Content-Encoding") == "gzip")
        #expect(bomb.body.count < 100_000)
        #expect(Array(bomb.body.prefix(2)) == [0x1f, 0x8b])
    }

    @Test("flaky, retry-after and token refresh keep their state per server")
    func helpers() throws {
        let server = try SampleServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        #expect(try client.request("GET", "/flaky/k?failures=2&status=500").status == 500)
        #expect(try client.request("GET", "/flaky/k?failures=2&status=500").status == 500)
        let third = try client.request("GET", "/flaky/k?failures=2&status=500")
        #expect(third.status == 200)
        #expect(third.json["attempt"]?.intValue == 3)
        #expect(try client.request("GET", "/flaky/other").status == 503)

        let first = try client.request("GET", "/retry-after?seconds=2&key=a")
        #expect(first.status == 503)
        #expect(first.header("Retry-After") == "2")
        #expect(try client.request("GET", "/retry-after?seconds=2&key=a").status == 200)

        #expect(try client.request("GET", "/auth/protected").status == 401)
        let token = try client.request("GET", "/auth/token").json["token"]?.stringValue ?? ""
        #expect(try client.request("GET", "/auth/protected", headers: ["Authorization: Bearer \(token)"]).status == 200)
        let refreshed = try client.request("POST", "/auth/refresh").json["token"]?.stringValue ?? ""
        #expect(refreshed != token)
        #expect(try client.request("GET", "/auth/protected", headers: ["Authorization: Bearer \(token)"]).status == 401)
        #expect(try client.request("GET", "/auth/protected", headers: ["Authorization: Bearer \(refreshed)"]).status == 200)
    }

    @Test("drip paces its bytes and delay waits")
    func pacing() throws {
        let server = try SampleServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let clock = ContinuousClock()
        let start = clock.now
        let drip = try client.request("GET", "/drip?numbytes=5&duration=0.2&delay=0.1")
        #expect(drip.body == Array("*****".utf8))
        #expect(clock.now - start >= .milliseconds(300))
        let delayed = try client.request("GET", "/delay/0.1")
        #expect(delayed.status == 200)
        #expect(clock.now - start >= .milliseconds(400))
    }

    @Test("fault routes break the response as advertised")
    func faults() throws {
        let server = try SampleServer()
        defer { server.stop() }
        let midBody = try RawClient(port: server.port)
        try midBody.send("GET /fault/close-mid-body HTTP/1.1\r\nHost: x\r\n\r\n")
        let head = try midBody.readResponse(forHead: true)
        #expect(head.header("Content-Length") == "100000")
        #expect(try midBody.readToEnd().count == 50_000)

        let garbage = try RawClient(port: server.port)
        try garbage.send("GET /fault/garbage-status HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(throws: ClientError.self) { try garbage.readResponse() }

        let none = try RawClient(port: server.port)
        try none.send("GET /fault/no-response HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try none.readToEnd().isEmpty)

        let long = try RawClient(port: server.port)
        try long.send("GET /fault/long-body HTTP/1.1\r\nHost: x\r\n\r\n")
        let longResponse = try long.readResponse()
        #expect(longResponse.body == Array("0123456789".utf8))
        #expect(try !long.readToEnd().isEmpty)
    }

    @Test("deterministic bytes agree at any offset")
    func deterministicBytes() {
        let whole = SampleServer.deterministicBytes(count: 1000, seed: 42)
        for offset in [0, 1, 7, 8, 9, 500, 999] {
            #expect(SampleServer.deterministicBytes(count: 1000 - offset, seed: 42, offset: offset) == Array(whole[offset...]))
        }
        #expect(SampleServer.deterministicBytes(count: 64, seed: 1) != SampleServer.deterministicBytes(count: 64, seed: 2))
        #expect(SampleServer.deterministicBytes(count: -1).isEmpty)
    }
}
