import AFStyle
import Chain
import Digest
import Dispatch
import Foundation
import SampleServer
import Testing

/// Hostile parameters and bodies through both front ends: numbers JSON cannot hold, strings
/// built from invalid UTF-8, bodies that are neither text nor JSON, and ten megabytes of
/// parameters. Each ends in a clear typed error or arrives intact; nothing crashes.
@Suite("Hostile input: parameters", .timeLimit(.minutes(2)))
struct HostileParameterTests {
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
            let (_, log) = startChain(Request.url(try TestServer.url("/post")).configuration(chainConfiguration(queue: queue))
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
            let url = try TestServer.url("/anything/utf8")
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
        let url = try TestServer.url("/bytes/512?seed=7")
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
        let url = try TestServer.url("/post")
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
        let url = try TestServer.url("/get")
        let (_, log) = await offPool {
            var parameters: [String: Parameter] = [:]
            for index in 0..<10_000 { parameters[String(format: "key%05d", index)] = .string(String(repeating: "q", count: 1_000)) }
            return startChain(Request.url(url).configuration(chainConfiguration(queue: queue)).params(parameters))
        }
        let outcome = try #require(await log.wait(for: 1, timeout: 50).first)
        #expect(outcome.kind == .invalidRequest, "\(outcome)")
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

extension HostileParameterTests.Measurement {
    struct Decoded: Decodable, Sendable {
        let value: Double
    }
}
