import AFStyle
import Chain
import Digest
import Dispatch
import Foundation
import SampleServer
import Testing

/// A string argument with a readable name in the test report.
struct Named<Value: Sendable>: Sendable, CustomTestStringConvertible {
    let name: String
    let value: Value
    var testDescription: String { name }
}

/// Issue 8.2: hostile input from the caller, through both front ends (and the engine where it
/// has an entry of its own). Each ends in a clear typed error, nothing crashes, and nothing
/// reaches the server: each test runs against a server of its own and checks that it saw no
/// connection at all.
@Suite("Hostile input", .timeLimit(.minutes(2)))
struct HostileInputTests {
    // MARK: URLs and schemes

    static let invalidURLs: [Named<String>] = [
        Named(name: "empty", value: ""),
        Named(name: "blanks", value: "   "),
        Named(name: "no host", value: "http://"),
        Named(name: "space in the host", value: "http:// spaced.example/"),
        Named(name: "space in the scheme", value: "ht tp://x/"),
        Named(name: "unclosed IPv6 bracket", value: "http://[::1"),
        Named(name: "bad percent escape in the host", value: "http://%zz/"),
        Named(name: "port out of range", value: "http://127.0.0.1:99999/get"),
        Named(name: "scheme-relative without a base", value: "//127.0.0.1/get"),
        Named(name: "javascript", value: "javascript:alert(1)"),
    ]

    /// Defence: Chain's URL resolution (`Request.resolveURL`) and, for a port libcurl refuses,
    /// CurlError's URL_MALFORMAT → invalidURL mapping.
    @Test(arguments: invalidURLs)
    func invalidURLThroughChain(_ url: Named<String>) async throws {
        let queue = DispatchQueue(label: "hardening.hostile.url")
        let store = try TemporaryCache()
        defer { store.remove() }
        let (task, log) = startChain(Request.url(url.value)
            .configuration(chainConfiguration(cache: store.cache, queue: queue)).cache(.networkOnly))
        let first = try #require(await log.wait(for: 1).first)
        await settle(cache: store.cache, queue: queue)
        #expect(first.kind == .invalidURL, "\(url.name): \(first)")
        #expect(log.count == 1)
        #expect(task.state == .completed)
        #expect(await store.entryCount == 0)
    }

    /// Defence: `HTTPSessionManager.resolve` (no host → invalidURL, `failure(nil, …)`), the
    /// engine's scheme check, and its URL_MALFORMAT mapping for the out-of-range port.
    @Test(arguments: invalidURLs)
    func invalidURLThroughAFStyle(_ url: Named<String>) async throws {
        let queue = DispatchQueue(label: "hardening.hostile.url.af")
        let manager = makeManager(queue: queue)
        let callbacks = AFCallbacks()
        manager.GET(url.value, success: callbacks.success, failure: callbacks.failure)
        let first = try #require(await callbacks.log.wait(for: 1).first)
        await settle(cache: nil, queue: queue)
        // AFStyle resolves "//host/path" as AFNetworking does (it has a host), so the engine's
        // scheme check refuses it instead: still typed, still before anything is sent.
        let allowed: [NetworkError.Kind] = url.value.hasPrefix("//") ? [.invalidURL, .unsupportedScheme] : [.invalidURL]
        #expect(first.kind.map(allowed.contains) == true, "\(url.name): \(first)")
        #expect(callbacks.log.count == 1)
    }

    static let foreignSchemes: [Named<String>] = [
        "ftp://127.0.0.1/secret", "file://localhost/etc/passwd", "FILE://localhost/etc/passwd",
        "gopher://127.0.0.1/", "dict://127.0.0.1:11211/stat", "ldap://127.0.0.1/", "telnet://127.0.0.1/",
        "smb://127.0.0.1/share", "scp://127.0.0.1/x", "tftp://127.0.0.1/x", "ws://127.0.0.1/socket",
    ].map { Named(name: $0, value: $0) }

    /// Only http and https, in all three entries. Defence: `HTTPClient.validate`'s scheme
    /// check (libcurl's PROTOCOLS_STR "http,https" stands behind it; redirects to other
    /// schemes are covered in the fault suite, where only libcurl can refuse them).
    @Test(arguments: foreignSchemes)
    func unsupportedSchemes(_ url: Named<String>) async throws {
        let queue = DispatchQueue(label: "hardening.hostile.scheme")
        let (_, log) = startChain(Request.url(url.value).configuration(chainConfiguration(queue: queue)))
        let chain = try #require(await log.wait(for: 1).first)
        #expect(chain.kind == .unsupportedScheme, "Chain, \(url.name): \(chain)")

        let callbacks = AFCallbacks()
        makeManager(queue: queue).GET(url.value, success: callbacks.success, failure: callbacks.failure)
        let afStyle = try #require(await callbacks.log.wait(for: 1).first)
        #expect(afStyle.kind == .unsupportedScheme, "AFStyle, \(url.name): \(afStyle)")

        let engine = await Clients.faults.result(HTTPRequest(url: try #require(URL(string: url.value))))
        #expect(engine.failure?.kind == .unsupportedScheme, "HTTPClient, \(url.name)")
        await settle(cache: nil, queue: queue)
        #expect(log.count == 1 && callbacks.log.count == 1)
    }

    /// `file:///etc/passwd` has no host: refused as an invalid URL by the front ends and as an
    /// unsupported scheme by the engine — never read.
    @Test func aFileURLWithoutHostIsNeverRead() async throws {
        let queue = DispatchQueue(label: "hardening.hostile.file")
        let (_, log) = startChain(Request.url("file:///etc/passwd").configuration(chainConfiguration(queue: queue)))
        #expect(try #require(await log.wait(for: 1).first).kind == .invalidURL)
        let engine = await Clients.faults.result(HTTPRequest(url: URL(fileURLWithPath: "/etc/passwd")))
        #expect(engine.failure?.kind == .unsupportedScheme)
    }

    // MARK: Header and method injection

    static let injectedHeaders: [Named<[String]>] = [
        Named(name: "CRLF in a value", value: ["X-Test", "a\r\nX-Injected: 1"]),
        Named(name: "LF in a value", value: ["X-Test", "a\nX-Injected: 1"]),
        Named(name: "CR in a value", value: ["X-Test", "a\rX-Injected: 1"]),
        Named(name: "NUL in a value", value: ["X-Test", "a\u{0}b"]),
        Named(name: "CRLF in a name", value: ["X-Test: 1\r\nX-Injected", "1"]),
        Named(name: "colon in a name", value: ["X-Test:", "1"]),
        Named(name: "space in a name", value: ["X Test", "1"]),
        Named(name: "empty name", value: ["", "1"]),
        Named(name: "non-ASCII name", value: ["X-Tést", "1"]),
        Named(name: "a request line smuggled in a value", value: ["X-Test", "1\r\n\r\nGET /admin HTTP/1.1\r\nHost: x"]),
    ]

    /// Header injection is refused before anything is sent, through every way a header gets
    /// in. Defence: `HTTPHeaders.firstUnsafeField()` checked in `HTTPClient.validate`.
    @Test(arguments: injectedHeaders)
    func headerInjectionIsRefused(_ header: Named<[String]>) async throws {
        let server = try SampleServer(port: 0)
        defer { server.stop() }
        let url = server.baseURL.absoluteString + "/headers"
        let (name, value) = (header.value[0], header.value[1])
        let queue = DispatchQueue(label: "hardening.hostile.header")
        let store = try TemporaryCache()
        defer { store.remove() }
        var outcomes: [(String, Outcome?)] = []

        let configuration = chainConfiguration(cache: store.cache, queue: queue)
        let (_, chainLog) = startChain(Request.url(url).configuration(configuration).cache(.networkOnly).header(name, value))
        outcomes.append(("Chain .header", await chainLog.wait(for: 1).first))

        var configured = configuration
        configured.headers.add(name: name, value: value)
        let (_, defaultsLog) = startChain(Request.url(url).configuration(configured))
        outcomes.append(("Chain configuration headers", await defaultsLog.wait(for: 1).first))

        if name == "X-Test" {
            let (_, typeLog) = startChain(Request.url(url).configuration(configuration).method(.post)
                .body(Data("x".utf8), contentType: value))
            outcomes.append(("Chain body content type", await typeLog.wait(for: 1).first))
        }

        let perCall = AFCallbacks()
        makeManager(queue: queue).GET(url, headers: [name: value], success: perCall.success, failure: perCall.failure)
        outcomes.append(("AFStyle headers:", await perCall.log.wait(for: 1).first))

        let serializer = AFCallbacks()
        let manager = makeManager(queue: queue)
        manager.requestSerializer.setValue(value, forHTTPHeaderField: name)
        manager.GET(url, success: serializer.success, failure: serializer.failure)
        outcomes.append(("AFStyle requestSerializer", await serializer.log.wait(for: 1).first))

        var request = try HTTPRequest(url)
        request.headers.add(name: name, value: value)
        let engine = await Clients.faults.result(request)
        outcomes.append(("HTTPClient", engine.failure.map(Outcome.failure)))

        for (entry, outcome) in outcomes {
            #expect(outcome?.kind == .invalidRequest, "\(header.name) through \(entry): \(outcome.map(String.init(describing:)) ?? "no callback")")
        }
        #expect(server.acceptedConnections == 0, "\(header.name): a request reached the server")
        #expect(await store.entryCount == 0)
    }

    static let injectedMethods: [Named<String>] = [
        Named(name: "a whole request line", value: "GET /admin HTTP/1.1\r\nHost: evil\r\n\r\nGET"),
        Named(name: "empty", value: ""),
        Named(name: "space", value: "G ET"),
        Named(name: "NUL", value: "GET\u{0}"),
        Named(name: "LF", value: "GET\n"),
    ]

    /// Defence: `HTTPMethod.isValidToken` checked in `HTTPClient.validate`.
    @Test(arguments: injectedMethods)
    func methodInjectionIsRefused(_ method: Named<String>) async throws {
        let server = try SampleServer(port: 0)
        defer { server.stop() }
        let url = server.baseURL.absoluteString + "/anything"
        let queue = DispatchQueue(label: "hardening.hostile.method")
        let (_, log) = startChain(Request.url(url).configuration(chainConfiguration(queue: queue))
            .method(HTTPMethod(rawValue: method.value)))
        #expect(try #require(await log.wait(for: 1).first).kind == .invalidRequest, "Chain, \(method.name)")
        let callbacks = AFCallbacks()
        makeManager(queue: queue).dataTask(HTTPMethod(rawValue: method.value), url,
                                           success: callbacks.success, failure: callbacks.failure)
        #expect(try #require(await callbacks.log.wait(for: 1).first).kind == .invalidRequest, "AFStyle, \(method.name)")
        #expect(server.acceptedConnections == 0)
    }

    /// CR and LF in a URL are percent-encoded by URL parsing, so they can never split the
    /// request line. Defence: Foundation's `URL(string:)` encoding plus libcurl's URL parser
    /// (a raw CR or LF would reach the server as a second header line).
    @Test func lineBreaksInAURLArePercentEncoded() async throws {
        let queue = DispatchQueue(label: "hardening.hostile.urlcrlf")
        let url = try Server.url("/anything/a\r\nX-Injected: 1")
        let body = await withCheckedContinuation { continuation in
            Request.url(url).configuration(chainConfiguration(queue: queue)).responseJSON { result in
                continuation.resume(returning: (try? result.get()).flatMap { $0 as? [String: Any] }.map(JSONBox.init))
            }
        }
        let echo = try #require(body?.object)
        let headers = try #require(echo["headers"] as? [String: Any])
        #expect(!headers.keys.contains { $0.lowercased() == "x-injected" })
        #expect((echo["path"] as? String)?.contains("%0D%0A") == true, "\(echo["path"] ?? "no path")")
    }

    // MARK: Parameters

    static let nonFiniteParameters: [Named<@Sendable () -> [String: Any]>] = [
        Named(name: "NaN", value: { ["x": Double.nan] }),
        Named(name: "infinity", value: { ["x": Double.infinity] }),
        Named(name: "minus infinity in an array", value: { ["a": [1, -Double.infinity]] }),
        Named(name: "Float NaN in a nested dictionary", value: { ["d": ["e": Float.nan]] }),
        Named(name: "Decimal NaN", value: { ["n": Decimal.nan] }),
    ]

    /// JSON cannot hold NaN or infinity: the call fails with invalidParameters before sending.
    /// Defence: `ParameterEncoding.writeJSON`'s `isFinite` check.
    @Test(arguments: nonFiniteParameters)
    func nonFiniteNumbersInJSONAreRefused(_ parameters: Named<@Sendable () -> [String: Any]>) async throws {
        let server = try SampleServer(port: 0)
        defer { server.stop() }
        let url = server.baseURL.absoluteString + "/post"
        let queue = DispatchQueue(label: "hardening.hostile.nan")
        let (_, log) = startChain(Request.url(url).configuration(chainConfiguration(queue: queue))
            .method(.post).encoding(.json).params(parameters.value()))
        #expect(try #require(await log.wait(for: 1).first).kind == .invalidParameters, "Chain, \(parameters.name)")

        let callbacks = AFCallbacks()
        let manager = makeManager(queue: queue)
        manager.requestSerializer = .json
        let task = manager.POST(url, parameters: parameters.value(), success: callbacks.success, failure: callbacks.failure)
        #expect(try #require(await callbacks.log.wait(for: 1).first).kind == .invalidParameters, "AFStyle, \(parameters.name)")
        #expect(task == nil && callbacks.failureTasks.values == [false], "AFStyle reports an unbuildable request with a nil task")

        let array = AFCallbacks()
        manager.POST(url, parameters: [parameters.value()], success: array.success, failure: array.failure)
        #expect(try #require(await array.log.wait(for: 1).first).kind == .invalidParameters, "AFStyle array, \(parameters.name)")
        #expect(server.acceptedConnections == 0)
    }

    struct Measurement: Encodable, Sendable {
        let value: Double
    }

    /// An `Encodable` with NaN: the encoder's failure is invalidParameters, not a crash.
    /// Defence: `Request.encode` wrapping the encoder's error.
    @Test func nonFiniteNumbersInAnEncodableAreRefused() async throws {
        let queue = DispatchQueue(label: "hardening.hostile.nan.encodable")
        for encoding in [ParameterEncoding.json, .form, .query] {
            let (_, log) = startChain(Request.url(try Server.url("/post")).configuration(chainConfiguration(queue: queue))
                .method(.post).encoding(encoding).params(encodable: Measurement(value: .nan)))
            #expect(try #require(await log.wait(for: 1).first).kind == .invalidParameters, "\(encoding)")
        }
    }

    /// Strings built from invalid UTF-8 become valid UTF-8 (U+FFFD) when the `String` is made,
    /// so what goes on the wire is exactly the string's UTF-8 — in a header, a query and a
    /// JSON body. Defence: the encoders write `String.utf8` (never raw storage), and the
    /// header check lets obs-text through while refusing control characters.
    @Test func stringsBuiltFromInvalidUTF8AreSentAsTheirRepairedText() async throws {
        let queue = DispatchQueue(label: "hardening.hostile.utf8")
        let repaired = String(decoding: [0x6F, 0x6B, 0xFF, 0xC3, 0x28, 0xED, 0xA0, 0x80] as [UInt8], as: UTF8.self)
        let lone = NSString(characters: [0xD800, 0x41], length: 2) as String  // a lone surrogate
        #expect(repaired.contains("\u{FFFD}"))

        for text in [repaired, lone] {
            let url = try Server.url("/anything/utf8")
            let echo = try await echoJSON(Request.url(url).configuration(chainConfiguration(queue: queue))
                .method(.post).header("X-Bytes", text).query(["q": text]).encoding(.json).params(["j": text]))
            let headers = try #require(echo["headers"] as? [String: Any])
            let sentHeader = headers.first { $0.key.lowercased() == "x-bytes" }?.value as? String
            #expect(sentHeader == text)
            #expect((echo["args"] as? [String: Any])?["q"] as? String == text)
            #expect((echo["json"] as? [String: Any])?["j"] as? String == text)

            let callbacks = AFCallbacks()
            let manager = makeManager(queue: queue)
            manager.requestSerializer = .json
            manager.POST(url, parameters: ["j": text], headers: ["X-Bytes": text],
                         success: callbacks.success, failure: callbacks.failure)
            #expect(try #require(await callbacks.log.wait(for: 1).first).bytes ?? 0 > 0)
        }
    }

    /// A body that is not UTF-8 or not JSON fails decoding with a typed error in every
    /// terminal. Defence: `HTTPResponse.text` validating UTF-8 and the JSON serializers'
    /// error wrapping (a force-unwrap or `try!` there would crash the process).
    @Test func bodiesThatAreNotTextOrJSONFailDecoding() async throws {
        let queue = DispatchQueue(label: "hardening.hostile.body")
        let url = try Server.url("/bytes/512?seed=7")
        let request = Request.url(url).configuration(chainConfiguration(queue: queue))
        let text = await withCheckedContinuation { continuation in request.responseString { continuation.resume(returning: $0) } }
        #expect(text.failure?.kind == .decodingFailed)
        let json = await withCheckedContinuation { continuation in
            request.responseJSON { continuation.resume(returning: $0.failure) }
        }
        #expect(json?.kind == .decodingFailed)
        let model = await withCheckedContinuation { continuation in
            request.response(Measurement.Decoded.self) { continuation.resume(returning: $0.failure) }
        }
        #expect(model?.kind == .decodingFailed)

        for serializer in [HTTPResponseSerializer.json, .string] {
            let callbacks = AFCallbacks()
            let manager = makeManager(queue: queue)
            manager.responseSerializer = serializer
            manager.GET(url, success: callbacks.success, failure: callbacks.failure)
            #expect(try #require(await callbacks.log.wait(for: 1).first).kind == .decodingFailed)
        }
    }

    /// A 10 MB parameter dictionary (10,000 keys of 1 KiB) is encoded and sent intact through
    /// both front ends. Defence: the encoders have no quadratic step and no size trap; the
    /// server's byte count and SHA-256 prove nothing was cut or reordered. Its limit is the
    /// suite's two minutes per test: under ThreadSanitizer on a busy 2-core machine it took 61 s
    /// (16–20 s without it); a quadratic step on 10 MB would take far longer than either.
    @Test
    func tenMegabytesOfParametersAreSentIntact() async throws {
        let queue = DispatchQueue(label: "hardening.hostile.big")
        let url = try Server.url("/post")
        // Building, encoding and hashing 10 MB happens off the concurrency pool (see `offPool`).
        let (parameters, form, json) = await offPool { () -> ([String: Parameter], Data, Data?) in
            let value = String(repeating: "v", count: 1_000)
            var parameters: [String: Parameter] = [:]
            for index in 0..<10_000 { parameters[String(format: "key%05d", index)] = .string(value) }
            return (parameters, Data(ParameterEncoding.urlEncodedString(parameters).utf8),
                    try? ParameterEncoding.jsonData(.dictionary(parameters)))
        }
        #expect(form.count > 10_000_000)
        let (formHash, jsonHash) = await offPool { (SHA256.hexDigest(form), json.map { SHA256.hexDigest($0) }) }

        let formEcho = Recorder<JSONBox>()
        let formFailure = Recorder<NetworkError>()
        await offPool {
            Request.url(url).configuration(chainConfiguration(queue: queue)).method(.post).params(parameters)
                .responseJSON { result in
                    switch result {
                    case .success(let object): formEcho.append(JSONBox((object as? [String: Any]) ?? [:]))
                    case .failure(let error): formFailure.append(error)
                    }
                }
        }
        let echoedForm = try #require(await formEcho.wait(for: 1, timeout: 50).first?.object, "\(formFailure.values)")
        #expect(echoedForm["bodyLength"] as? Int == form.count)
        #expect(echoedForm["bodySHA256"] as? String == formHash)

        let callbacks = AFCallbacks()
        let jsonEcho = Recorder<JSONBox>()
        await offPool {
            let manager = makeManager(queue: queue)
            manager.requestSerializer = .json
            manager.responseSerializer = .json
            manager.POST(url, parameters: parameters.mapValues(\.anyValue), success: { _, object in
                jsonEcho.append(JSONBox((object as? [String: Any]) ?? [:]))
            }, failure: callbacks.failure)
        }
        let echoedJSON = try #require(await jsonEcho.wait(for: 1, timeout: 50).first?.object, "\(callbacks.log.values)")
        #expect(echoedJSON["bodyLength"] as? Int == json?.count)
        #expect(echoedJSON["bodySHA256"] as? String == jsonHash)
    }

    /// 10 MB of parameters in a GET's query is refused with a typed error (libcurl refuses
    /// strings over 8 MB, the server heads over 64 KiB), never a crash or a hang.
    /// Defence: CurlTransfer's `check` of every `setopt` result. The suite's two minutes, like
    /// the test above: it took 30 s under ThreadSanitizer on a busy machine.
    @Test
    func tenMegabytesInAQueryFailWithATypedError() async throws {
        let queue = DispatchQueue(label: "hardening.hostile.bigquery")
        let url = try Server.url("/get")
        let (_, log) = await offPool {
            var parameters: [String: Parameter] = [:]
            for index in 0..<10_000 { parameters[String(format: "key%05d", index)] = .string(String(repeating: "q", count: 1_000)) }
            return startChain(Request.url(url).configuration(chainConfiguration(queue: queue)).params(parameters))
        }
        let outcome = try #require(await log.wait(for: 1, timeout: 50).first)
        #expect(outcome.kind == .invalidRequest, "\(outcome)")
    }

    // MARK: Files

    /// A file part or body file that does not exist (or is a directory) fails with fileIO
    /// before anything is sent. Defence: `HTTPClient.validate`'s `requireReadableFile` and
    /// AFStyle's `MultipartFormBuilder` check (even when the block swallows the error).
    @Test func missingFilesFailBeforeSending() async throws {
        let server = try SampleServer(port: 0)
        defer { server.stop() }
        let directory = try temporaryDirectory("files")
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("missing.bin")
        let url = server.baseURL.absoluteString + "/upload"
        let queue = DispatchQueue(label: "hardening.hostile.files")
        let configuration = chainConfiguration(queue: queue)

        for file in [missing, directory] {
            var form = MultipartFormData()
            form.append("field", name: "caption")
            form.append(fileURL: file, name: "file")
            let (_, multipart) = startChain(Request.url(url).configuration(configuration).method(.post).multipart(form))
            #expect(try #require(await multipart.wait(for: 1).first).kind == .fileIO, "Chain multipart, \(file.lastPathComponent)")
            let (_, body) = startChain(Request.url(url).configuration(configuration).method(.post).body(fileURL: file))
            #expect(try #require(await body.wait(for: 1).first).kind == .fileIO, "Chain body file, \(file.lastPathComponent)")

            let swallowed = AFCallbacks()
            let task = makeManager(queue: queue).POST(url, parameters: ["a": "b"], constructingBodyWith: { formData in
                try? formData.appendPart(withFileURL: file, name: "file")
            }, success: swallowed.success, failure: swallowed.failure)
            #expect(try #require(await swallowed.log.wait(for: 1).first).kind == .fileIO, "AFStyle multipart")
            #expect(task == nil)

            let upload = AFCallbacks()
            makeManager(queue: queue).upload(url, fromFile: file, success: upload.success, failure: upload.failure)
            #expect(try #require(await upload.log.wait(for: 1).first).kind == .fileIO, "AFStyle upload")
        }

        let download = AFCallbacks()
        makeManager(queue: queue).download(server.baseURL.absoluteString + "/bytes/10",
                                           to: directory.appendingPathComponent("no/such/dir/file.bin"),
                                           success: { _, _ in download.log.append(.success(bytes: 0)) },
                                           failure: download.failure)
        #expect(try #require(await download.log.wait(for: 1).first).kind == .fileIO, "AFStyle download into a missing directory")
        #expect(server.acceptedConnections == 0)
    }

    // MARK: Helpers

    /// Runs a Chain request with the JSON terminal and returns the echo object.
    private func echoJSON(_ request: Request) async throws -> [String: Any] {
        let box = await withCheckedContinuation { continuation in
            request.responseJSON { result in
                continuation.resume(returning: Result { try result.get() }.map { JSONBox(($0 as? [String: Any]) ?? [:]) }
                    .mapError { ($0 as? NetworkError) ?? NetworkError(.transport, "\($0)") })
            }
        }
        return try box.get().object
    }
}

extension HostileInputTests.Measurement {
    struct Decoded: Decodable, Sendable {
        let value: Double
    }
}

/// A JSON object from `JSONSerialization`, carried across queues. `@unchecked Sendable`: it is
/// made on the callback queue and only read afterwards.
struct JSONBox: @unchecked Sendable {
    let object: [String: Any]
    init(_ object: [String: Any]) { self.object = object }
}
