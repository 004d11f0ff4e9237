import CurlTransport
import Foundation
import HTTPCore
import HTTPFeatures
import Testing

/// A hostile peer started off the Swift concurrency pool: starting one waits for python to
/// print its port, which must not hold one of the pool's few threads that every suite shares.
func redirectScenarioPeer() async throws -> HostilePeer {
    try await HostilePeer.start()
}

/// What each redirect hop carries (issue 21, item 2), read from the hostile peer's log of every
/// request it received (`Tests/HostilePeer/scenarios_redirect.py`): the method, the body and
/// its headers per status, credentials across origins, `Referer`, `Location` resolution, and
/// the call's final URL, count and timings; downloads, coalesced `GET`s and a cancel mid-hop.
@Suite("Redirect hops", .serialized, .timeLimit(.minutes(1)))
struct RedirectHopTests {
    private let client = HTTPClient()

    /// A request through one `status` redirect to the echo scenario, named `id` in both paths.
    private func redirected(_ peer: HostilePeer, status: Int, id: String, method: HTTPMethod,
                            body: Data?) -> HTTPRequest {
        var request = HTTPRequest(url: peer.url("/redirect-hop/\(id)?status=\(status)&to=/redirect-echo/\(id)"),
                                  method: method)
        if let body {
            request.body = .data(body)
            request.headers.add(name: "Content-Type", value: "text/plain")
            request.headers.add(name: "Content-Language", value: "en")
        }
        return request
    }

    @Test("every method × redirect status: the next hop's method, body and body headers", arguments: [301, 302, 303, 307, 308])
    func methodAndBodyPerStatus(status: Int) async throws {
        let peer = try await redirectScenarioPeer()
        defer { peer.stop() }
        let cases: [(HTTPMethod, Bool)] = [(.get, false), (.head, false)]
            + [HTTPMethod.post, .put, .patch, .delete].flatMap { [($0, true), ($0, false)] }
        for (method, hasBody) in cases {
            let id = "\(method.rawValue)-\(hasBody ? "body" : "empty")"
            let payload = Data("payload of \(id)".utf8)
            let result = await client.result(redirected(peer, status: status, id: id, method: method,
                                                        body: hasBody ? payload : nil))
            #expect(result.success?.statusCode == 200, "\(status) \(id): \(String(describing: result.failure))")
            let hops = peer.recordedRequests(pathPrefix: "/redirect-echo/\(id)")
            guard let hop = hops.first else {
                Issue.record("\(status) \(id): the redirect was not followed")
                continue
            }
            #expect(hops.count == 1, "\(status) \(id)")
            // 303: GET (HEAD stays HEAD), no body. 301/302: POST becomes GET. 307/308: unchanged.
            let becomesGet = (status == 303 && method != .head) || ((status == 301 || status == 302) && method == .post)
            let expectedMethod = becomesGet ? "GET" : method.rawValue
            let keepsBody = hasBody && !becomesGet
            #expect(hop.method == expectedMethod, "\(status) \(id)")
            #expect(hop.bodyLength == (keepsBody ? payload.count : 0), "\(status) \(id)")
            // The caller's body fields go with the body. (libcurl gives an empty POST, PUT or
            // PATCH a form Content-Type of its own, so only a GET is checked for none at all.)
            #expect((hop.header("Content-Language") != nil) == keepsBody, "\(status) \(id)")
            if keepsBody {
                #expect(hop.header("Content-Type") == "text/plain", "\(status) \(id)")
            }
            if becomesGet {
                #expect(hop.header("Content-Type") == nil, "\(status) \(id)")
                #expect(hop.header("Content-Length") == nil, "\(status) \(id)")
            }
            if keepsBody, let echoed = result.success.flatMap({ try? JSONSerialization.jsonObject(with: $0.body) as? [String: Any] }) {
                #expect(echoed["body"] as? String == String(decoding: payload, as: UTF8.self), "\(status) \(id)")
            }
        }
    }

    @Test("a 307 sends a file body and a form again, whole")
    func streamedBodiesAreSentAgain() async throws {
        let peer = try await redirectScenarioPeer()
        defer { peer.stop() }
        let directory = try temporaryDirectory("redirect-upload")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("upload.bin")
        try Data(repeating: 0x41, count: 70_000).write(to: file)
        let put = HTTPRequest(url: peer.url("/redirect-hop/f?status=307&to=/redirect-echo/f"), method: .put, body: .file(file))
        #expect(await client.result(put).success?.statusCode == 200)
        #expect(peer.recordedRequests(pathPrefix: "/redirect-hop/f").first?.bodyLength == 70_000)
        #expect(peer.recordedRequests(pathPrefix: "/redirect-echo/f").first?.bodyLength == 70_000)

        var form = MultipartFormData()
        form.append("value", name: "field")
        let post = HTTPRequest(url: peer.url("/redirect-hop/m?status=308&to=/redirect-echo/m"), method: .post,
                               body: .multipart(form))
        #expect(await client.result(post).success?.statusCode == 200)
        let sent = try #require(peer.recordedRequests(pathPrefix: "/redirect-hop/m").first)
        let resent = try #require(peer.recordedRequests(pathPrefix: "/redirect-echo/m").first)
        #expect(resent.method == "POST")
        #expect(resent.bodyLength == sent.bodyLength)
        #expect(resent.header("Content-Type")?.hasPrefix("multipart/form-data") == true)
    }

    @Test("credentials go to the same origin only; Referer is the previous URL without its user information")
    func credentialsAcrossOrigins() async throws {
        let first = try await redirectScenarioPeer(), second = try await redirectScenarioPeer()
        defer {
            first.stop()
            second.stop()
        }
        let other = second.urlString("/redirect-echo/other")
        let elsewhere = "/redirect-hop/same?status=302&to=\(other.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")"
        let start = try #require(URL(string: "http://user:secret@127.0.0.1:\(first.port)/redirect-hop/start?status=307&to=\(elsewhere.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")"))
        var request = HTTPRequest(url: start)
        request.headers = ["Authorization": "Bearer token", "Cookie": "session=1", "Proxy-Authorization": "Basic cA==",
                           "X-Kept": "yes"]
        let result = await client.result(request)
        #expect(result.success?.statusCode == 200)
        #expect(result.success?.url.absoluteString == other)

        // The same-origin hop keeps them all.
        let same = try #require(first.recordedRequests(pathPrefix: "/redirect-hop/same").first)
        #expect(same.header("Authorization") == "Bearer token")
        #expect(same.header("Cookie") == "session=1")
        #expect(same.header("Proxy-Authorization") == "Basic cA==")
        #expect(same.header("Referer")?.hasPrefix("http://127.0.0.1:\(first.port)/redirect-hop/start") == true)

        let crossed = try #require(second.recordedRequests(pathPrefix: "/redirect-echo/other").first)
        #expect(crossed.header("Authorization") == nil)
        #expect(crossed.header("Cookie") == nil)
        #expect(crossed.header("Proxy-Authorization") == nil)
        #expect(crossed.header("X-Kept") == "yes")
        #expect(crossed.header("Referer")?.hasPrefix("http://127.0.0.1:\(first.port)/redirect-hop/same") == true)
        #expect(crossed.header("Referer")?.contains("secret") == false)
    }

    @Test("URL user information is not carried to another origin")
    func userInformationStaysWithItsOrigin() async throws {
        let first = try await redirectScenarioPeer(), second = try await redirectScenarioPeer()
        defer {
            first.stop()
            second.stop()
        }
        let same = try #require(URL(string: "http://user:secret@127.0.0.1:\(first.port)/redirect-hop/u?status=302&to=/redirect-echo/u"))
        #expect(await client.result(HTTPRequest(url: same)).success?.statusCode == 200)
        #expect(first.recordedRequests(pathPrefix: "/redirect-echo/u").first?.header("Authorization")?.hasPrefix("Basic ") == true)

        // A protocol-relative Location to the other origin.
        let location = "//127.0.0.1:\(second.port)/redirect-echo/v"
        let cross = try #require(URL(string: "http://user:secret@127.0.0.1:\(first.port)/redirect-hop/v?status=302&to=\(location.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")"))
        let result = await client.result(HTTPRequest(url: cross))
        #expect(result.success?.url.absoluteString == "http://127.0.0.1:\(second.port)/redirect-echo/v")
        let arrived = try #require(second.recordedRequests(pathPrefix: "/redirect-echo/v").first)
        #expect(arrived.header("Authorization") == nil)
    }

    @Test("relative Locations, spaces and non-ASCII; the final URL, count and timings")
    func locationResolutionAndTheFinalResponse() async throws {
        let peer = try await redirectScenarioPeer()
        defer { peer.stop() }
        // Two hops: a relative "../../" Location, then one with a space and a non-ASCII letter.
        let second = "/redirect-hop/b?status=301&to=\("/redirect-echo/a b/ü".addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")"
        let start = peer.url("/redirect-hop/a/b?status=302&to=\("../..\(second)".addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")")
        let response = try await client.result(HTTPRequest(url: start)).get()
        #expect(response.statusCode == 200)
        #expect(peer.recordedRequests(pathPrefix: "/redirect-hop/b").count == 1)
        // Percent-encoded as libcurl encodes a Location (lowercase hex digits).
        #expect(peer.recordedRequests(pathPrefix: "/redirect-echo/").first?.path.lowercased() == "/redirect-echo/a%20b/%c3%bc")
        #expect(response.url.absoluteString.lowercased() == peer.urlString("/redirect-echo/a%20b/%c3%bc"))
        #expect(response.timings.redirectCount == 2)
        #expect(response.timings.redirect > 0)
        #expect(response.timings.total >= response.timings.redirect)
        #expect(response.headers["Location"] == nil)
    }

    @Test("the total timeout covers every hop, not each one")
    func totalTimeoutSpansTheHops() async throws {
        let peer = try await redirectScenarioPeer()
        defer { peer.stop() }
        // Two hops of 0.6 s each: each fits in 1 s, the chain does not.
        let second = "/redirect-hop/t2?delay=0.6&status=302&to=/redirect-echo/t"
        var request = HTTPRequest(url: peer.url("/redirect-hop/t1?delay=0.6&status=302&to=\(second.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")"))
        request.timeouts.total = 1
        #expect(await client.result(request).failure?.kind == .timedOut)
    }

    @Test("a followed redirect's body is dropped as it arrives, not held against the size limit")
    func followedRedirectBodiesAreNotKept() async throws {
        let peer = try await redirectScenarioPeer()
        defer { peer.stop() }
        var request = HTTPRequest(url: peer.url("/redirect-hop/big?status=302&size=200000&to=/redirect-echo/big"))
        request.maximumResponseSize = 4096
        let response = try await client.result(request).get()
        #expect(response.statusCode == 200)
        #expect(response.url.path == "/redirect-echo/big")
        // Not followed, the same redirect's body is the response's, and over the limit.
        request.redirectPolicy = .none
        #expect(await client.result(request).failure?.kind == .responseTooLarge)
    }

    @Test("a download follows the redirect and writes only the final body")
    func downloadsFollowRedirects() async throws {
        let peer = try await redirectScenarioPeer()
        defer { peer.stop() }
        let directory = try temporaryDirectory("redirect-download")
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("file.json")
        var request = HTTPRequest(url: peer.url("/redirect-hop/d?status=302&to=/redirect-echo/d"))
        request.download = DownloadOptions(destination: destination)
        let response = try await client.result(request).get()
        #expect(response.fileURL == destination)
        let written = try JSONSerialization.jsonObject(with: Data(contentsOf: destination)) as? [String: Any]
        #expect(written?["path"] as? String == "/redirect-echo/d")
    }

    @Test("identical GETs through a redirect all get the final response")
    func coalescedGetsFollowRedirects() async throws {
        let peer = try await redirectScenarioPeer()
        defer { peer.stop() }
        // The first hop waits, so the second GET joins the transfer in flight.
        let request = HTTPRequest(url: peer.url("/redirect-hop/c?delay=0.3&status=303&to=/redirect-echo/c"))
        async let first = client.result(request)
        async let second = client.result(request)
        let results = await [first, second]
        for result in results {
            #expect(result.success?.statusCode == 200)
            #expect(result.success?.url.path == "/redirect-echo/c")
            #expect(result.success?.timings.redirectCount == 1)
        }
        // One transfer carried both, hop after hop.
        #expect(peer.recordedRequests(pathPrefix: "/redirect-hop/c").count == 1)
        #expect(peer.recordedRequests(pathPrefix: "/redirect-echo/c").count == 1)
    }

    @Test("cancel on a later hop ends the call with .cancelled")
    func cancelDuringAHop() async throws {
        let peer = try await redirectScenarioPeer()
        defer { peer.stop() }
        let outcome = Recorder<Result<HTTPResponse, NetworkError>>()
        let progress = Recorder<TransferProgress>()
        // The second hop's 10 body bytes (the redirect's body has 5): that hop is under way, and stalls.
        let task = client.send(HTTPRequest(url: peer.url("/redirect-hop/h?status=307&to=/redirect-stall/h")),
                               progress: { if $0.direction == .download, $0.completedBytes >= 10 { progress.append($0) } }) {
            outcome.append($0)
        }
        #expect(await progress.wait(for: 1, timeout: 10).count >= 1)
        #expect(peer.recordedRequests(pathPrefix: "/redirect-stall/").count == 1)
        task.cancel()
        let results = await outcome.wait(for: 1, timeout: 10)
        #expect(results.count == 1)
        #expect(results.first?.failure?.kind == .cancelled)
    }
}
