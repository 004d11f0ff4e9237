@testable import SampleServer
import Testing

/// The cookie routes, byte by byte.
@Suite("SampleServer cookie routes")
struct CookieRouteTests {
    @Test("set: one Set-Cookie per item with Path=/, then 302 to /cookies")
    func set() throws {
        let server = try SampleServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let response = try client.request("GET", "/cookies/set?a=1&b=two")
        #expect(response.status == 302)
        #expect(response.header("Location") == "/cookies")
        #expect(response.headers.filter { $0.name == "Set-Cookie" }.map(\.value) == ["a=1; Path=/", "b=two; Path=/"])
        #expect(try client.request("GET", "/cookies/set?a=x%3By").status == 400)
        #expect(try client.request("GET", "/cookies/set?a%3Db=1").status == 400)
    }

    @Test("delete: an expired Set-Cookie per name, then 302 to /cookies")
    func delete() throws {
        let server = try SampleServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let response = try client.request("GET", "/cookies/delete?a&b")
        #expect(response.status == 302)
        #expect(response.header("Location") == "/cookies")
        let fields = response.headers.filter { $0.name == "Set-Cookie" }.map(\.value)
        #expect(fields == ["a=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Path=/",
                           "b=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Path=/"])
    }

    @Test("cookies: the Cookie fields as JSON, first of a repeated name winning")
    func echo() throws {
        let server = try SampleServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        #expect(try client.request("GET", "/cookies").json == ["cookies": [:]])
        let response = try client.request("GET", "/cookies", headers: ["Cookie: a=1; b=two", "Cookie: a=3;c="])
        #expect(response.status == 200)
        #expect(response.json == ["cookies": ["a": "1", "b": "two", "c": ""]])
    }

    @Test("set-header: each h sent verbatim as its own Set-Cookie; control characters are 400")
    func setHeader() throws {
        let server = try SampleServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let response = try client.request("GET", "/cookies/set-header?h=a%3D1%3B%20Domain%3D.example.com%3B%20Secure&h=b%3D2%3B%20SameSite%3DStrict")
        #expect(response.status == 200)
        #expect(response.json == [:])
        #expect(response.headers.filter { $0.name == "Set-Cookie" }.map(\.value)
            == ["a=1; Domain=.example.com; Secure", "b=2; SameSite=Strict"])
        #expect(try client.request("GET", "/cookies/set-header?h=a%3D1%0D%0AX-Injected%3A%201").status == 400)
    }
}
