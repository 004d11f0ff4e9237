import Foundation
import HTTPCore
import HTTPFeatures
import Synchronization

/// Records the exchanges of a test against a real server into a file, and replays them later
/// without the network — VCR, Betamax or OkHttp's recording, as a ``TransferResponder``.
///
/// ```swift
/// var configuration = ChainConfiguration(baseURL: server.baseURL)
/// configuration.cassette = try Cassette(fileURL: fixtures.appendingPathComponent("login.json"))
/// let user = try await configuration.url("/account/login").method(.post)
///     .params(["username": "wiki", "password": "secret"]).value(User.self)
/// ```
///
/// The cassette sees each request as it goes on the wire — adapted by the interceptors, with
/// the jar's cookies, each redirect hop and each retry on its own — and what it replays runs
/// through the rest of the pipeline as a network response would: validation (a recorded `500`
/// fails again with `.unacceptableStatus(500)`), envelopes, decoding, the cache step, the
/// cookie jar and the hooks. Replayed responses have the source `.stub`.
///
/// **Secrets.** The recorded request's headers, URL query and body, and the response's
/// headers (`Set-Cookie`, tokens), are redacted by ``redaction`` before they are written, and
/// requests are matched in their redacted forms (``CassetteMatching``), so a login recorded
/// with its password as `***` still matches. A replayed `Set-Cookie` therefore sets the
/// cookie's value to `***`. Response bodies are kept as they came — they are what the code
/// under test decodes — so do not record against a server whose bodies carry real secrets.
/// A request body that is neither JSON nor a form cannot be checked for secrets and is kept as
/// it is; a multipart form is kept rendered with a fixed boundary, fields named like
/// credentials hidden.
///
/// **The file** is JSON, pretty-printed with sorted keys: `"version": 1` and the
/// `"interactions"` in recording order, each with its `request` (method, URL, headers as
/// name/value pairs, body) and `response` (status, HTTP version, headers in order, body).
/// A body is kept exactly — valid UTF-8 as the string `body`, anything else as base64 in
/// `bodyBase64` — so what is replayed is byte for byte what was recorded. After each
/// recording the whole file is written again, atomically (a temporary file in its directory,
/// then a rename), so nothing recorded is lost if the test process dies. Cassettes on
/// different files are independent; two cassettes on one file overwrite each other's saves.
///
/// **Not recorded.** A failure without a response (a refused connection, a timeout) is passed
/// on as it is. A streamed response (server-sent events, line streams) is never recorded:
/// under ``Mode/record`` and ``Mode/once`` it goes to the network, under ``Mode/replay`` it
/// fails with ``CassetteError/streamedResponse(method:url:path:)``. A download to a file is
/// recorded with the file's bytes as its body and replayed from memory (the download writes
/// them to the destination); a resumed download's record is the whole file.
public final class Cassette: TransferResponder {
    /// What a cassette does with a request.
    public enum Mode: Sendable, Hashable {
        /// Every request goes to the network and is recorded; a recording replaces what the
        /// file had for the same request (by ``Cassette/matching``). The file need not exist.
        case record
        /// Never the network: a recorded request is replayed, any other fails with
        /// ``CassetteError/notRecorded(method:url:path:)``. The file must exist.
        case replay
        /// What is recorded is replayed; what is not goes to the network and is recorded.
        /// The file need not exist.
        case once
    }

    /// The cassette file.
    public let fileURL: URL
    /// What the cassette does with requests. Default ``Mode/once``.
    public let mode: Mode
    /// How a request is matched with a recording. Default ``CassetteMatching/default``.
    public let matching: CassetteMatching
    /// What is hidden in the file. Default `Redaction.default` (the logger's).
    public let redaction: Redaction
    private let state: Mutex<CassetteState>

    /// Opens a cassette, reading its file at once when there is one.
    ///
    /// - Parameters:
    ///   - fileURL: the file; its directory is made at the first recording when missing.
    ///   - mode: default ``Mode/once``.
    ///   - matching: default ``CassetteMatching/default`` (method, canonical URL, body).
    ///   - redaction: default `Redaction.default`.
    /// - Throws: ``CassetteError/damaged(path:reason:)`` when the file is not a cassette
    ///   (not JSON, the wrong shape, another version, bad base64);
    ///   ``CassetteError/fileMissing(path:)`` under ``Mode/replay`` when there is no file.
    public init(fileURL: URL, mode: Mode = .once, matching: CassetteMatching = .default,
                redaction: Redaction = .default) throws(CassetteError) {
        let file = try CassetteFile.load(from: fileURL)
        if file == nil, mode == .replay { throw .fileMissing(path: fileURL.path) }
        self.fileURL = fileURL
        self.mode = mode
        self.matching = matching
        self.redaction = redaction
        state = Mutex(CassetteState(file: file, matching: matching))
    }

    /// How many interactions the cassette holds: those of the file, with the recordings of
    /// this process in their places.
    public var interactionCount: Int {
        state.withLock { $0.entries.count }
    }

    /// Replays `request`'s recording, or sends it on and records the answer, by ``mode``.
    public func respond(to request: HTTPRequest, chain: TransferChain,
                        completion: @escaping @Sendable (Result<HTTPResponse, NetworkError>) -> Void) {
        let path = fileURL.path
        if request.responseStream != nil {
            guard mode != .replay else {
                let error = CassetteError.streamedResponse(method: request.method.rawValue,
                                                           url: redaction.redacting(request.url), path: path)
                return completion(.failure(NetworkError(.invalidRequest, error.description, underlyingError: error)))
            }
            return chain.proceed(request, completion: completion)
        }
        let body = CassetteInteraction.RecordedRequest.redactedBytes(of: request.body, redaction: redaction)
        let recorded = CassetteInteraction.RecordedRequest(request, body: body ?? Data(), redaction: redaction)
        let key = matching.key(for: recorded, bodyIsKnown: body != nil)
        if mode != .record, let interaction = state.withLock({ $0.replay(for: key) }) {
            return completion(.success(interaction.response.replayed(for: request)))
        }
        guard mode != .replay else {
            let error = CassetteError.notRecorded(method: recorded.method, url: recorded.url, path: path)
            return completion(.failure(NetworkError(.invalidRequest, error.description, underlyingError: error)))
        }
        chain.proceed(request) { [self] result in
            guard case .success(let response) = result else { return completion(result) }
            completion(record(recorded, key: key, response: response))
        }
    }

    /// Records `response` as the answer to `request` and saves the file; the response goes on
    /// unchanged (unredacted), or the request fails when the file cannot be saved.
    private func record(_ request: CassetteInteraction.RecordedRequest, key: CassetteMatchKey,
                        response: HTTPResponse) -> Result<HTTPResponse, NetworkError> {
        var body = response.body
        if let written = response.fileURL {
            do {
                body = try Data(contentsOf: written)
            } catch {
                return .failure(NetworkError(.fileIO, "cannot read the download \(written.path) to record it in the cassette \(fileURL.path): "
                                             + error.localizedDescription, response: response, underlyingError: error))
            }
        }
        let interaction = CassetteInteraction(
            request: request, response: CassetteInteraction.RecordedResponse(response, body: body, redaction: redaction))
        let saved = state.withLock { state -> Result<Void, CassetteError> in
            let before = state
            state.record(interaction, key: key, replacingOldRecordings: mode == .record)
            // Written under the lock, so that saves land in the order of the recordings and a
            // later save never goes under an earlier one.
            do throws(CassetteError) {
                try state.file.write(to: fileURL)
                return .success(())
            } catch {
                // What the file does not have is not kept either: the next identical request
                // goes to the network again rather than replaying an unsaved recording.
                state = before
                return .failure(error)
            }
        }
        switch saved {
        case .success:
            return .success(response)
        case .failure(let error):
            return .failure(NetworkError(.fileIO, error.description, response: response, underlyingError: error))
        }
    }
}
