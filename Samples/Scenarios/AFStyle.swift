import AFStyle
import Foundation
import Synchronization

/// The AFNetworking way: a session manager with a base URL, `GET`/`POST` with `success` and
/// `failure` blocks, `responseObject` as Foundation objects — and a multipart upload with
/// a progress block. The calls of the login-and-users sample, through the facade.
public enum AFStyleSample {
    public static func run(baseURL: URL, output: SampleOutput) async throws {
        // `[[AFHTTPSessionManager alloc] initWithBaseURL:]`: relative paths resolve against it.
        let manager = HTTPSessionManager(baseURL: baseURL)

        // POST a form; `responseObject` is the parsed JSON, as with AFJSONResponseSerializer.
        let name = try await call { done in
            manager.POST("account/login", parameters: ["username": "wiki", "password": "secret"], headers: nil,
                         progress: nil,
                         success: { _, responseObject in
                             done(.success((responseObject as? [String: Any])?["name"] as? String ?? "?"))
                         },
                         failure: { _, error in done(.failure(error)) })
        }
        output.say("POST account/login → logged in as \(name)")
        try expect(name == "wiki", "to log in as wiki")

        // The typed variant: `success` gets a `User` instead of a dictionary to pick apart.
        let user = try await call { done in
            manager.GET("user/101", as: User.self,
                        success: { _, user in done(.success(user)) },
                        failure: { _, error in done(.failure(error)) })
        }
        output.say("GET user/101 → \(user.name), \(user.email)")
        try expect(user.id == "101", "user 101")

        let names = try await call { done in
            manager.GET("user/query", parameters: ["q": "i"], headers: nil, progress: nil,
                        success: { _, responseObject in
                            let users = responseObject as? [[String: Any]] ?? []
                            done(.success(users.compactMap { $0["name"] as? String }))
                        },
                        failure: { _, error in done(.failure(error)) })
        }
        output.say("GET user/query?q=i → \(names.joined(separator: ", "))")
        try expect(names == ["wiki", "alice"], "wiki and alice")

        // `.shared` has no base URL (`[AFHTTPSessionManager manager]`): give it a full URL.
        let alice = try await call { done in
            HTTPSessionManager.shared.GET(baseURL.appendingPathComponent("user/102").absoluteString, as: User.self,
                                          success: { _, user in done(.success(user)) },
                                          failure: { _, error in done(.failure(error)) })
        }
        output.say("HTTPSessionManager.shared GET …/user/102 → \(alice.name)")
        try expect(alice.name == "alice", "user 102 to be alice")

        // A refused call lands in `failure`; the status is on the error (no NSHTTPURLResponse
        // cast), the server's {"error","error_code"} body on `error.response`.
        let refused = try await expectFailure("an unknown user") {
            try await call { done in
                manager.GET("user/999", parameters: nil, headers: nil, progress: nil,
                            success: { _, _ in done(.success(())) },
                            failure: { _, error in done(.failure(error)) })
            }
        }
        let body = refused.response.flatMap { try? JSONDecoder().decode(APIError.self, from: $0.body) }
        output.say("GET user/999 → failure: HTTP \(refused.statusCode ?? 0), "
                   + "error_code \(body?.errorCode ?? "?"): \(body?.error ?? "")")
        try expect(refused.statusCode == 404 && body?.errorCode == "1004", "HTTP 404 with error_code 1004")

        try await upload(manager, output: output)
    }

    /// A multipart upload of an 8 MiB file, streamed from disk, with a progress block.
    static func upload(_ manager: HTTPSessionManager, output: SampleOutput) async throws {
        let size = 8 * 1024 * 1024
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("chain-afstyle-\(UUID().uuidString).jpg")
        try Data(repeating: 0xAB, count: size).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        let display = ProgressPrinter(label: "upload", output: output)
        output.say("POST upload (multipart: a form field and an \(size)-byte file):")
        let parts = try await call { done in
            manager.POST("upload", parameters: ["album": "holidays"], headers: nil, constructingBodyWith: { formData in
                try formData.appendPart(withFileURL: file, name: "photo", fileName: "beach.jpg", mimeType: "image/jpeg")
            }, progress: { progress in
                display.show(progress)    // where an iOS app would update its MBProgressHUD
            }, success: { _, responseObject in
                // The sample server answers with what it received: each part's name and size.
                let parts = (responseObject as? [String: Any])?["parts"] as? [[String: Any]] ?? []
                done(.success(parts.map { "\($0["name"] as? String ?? "?")=\($0["size"] as? Int ?? -1)" }))
            }, failure: { _, error in done(.failure(error)) })
        }
        output.say("   the server received the parts: \(parts.joined(separator: ", ")) bytes")
        try expect(parts == ["album=8", "photo=\(size)"], "the form field and the whole file")
        try expect(display.reports > 0, "progress reports during the upload")
    }

    /// AFNetworking reports through a `success` and a `failure` block; this turns one call into
    /// an awaitable value. `start` hands `done` to both blocks (exactly one of them runs).
    static func call<Value: Sendable>(
        _ start: (_ done: @escaping @Sendable (Result<Value, NetworkError>) -> Void) -> Void
    ) async throws(NetworkError) -> Value {
        let result = await withCheckedContinuation { continuation in
            start { continuation.resume(returning: $0) }
        }
        return try result.get()
    }
}

/// A plain-text progress display for a progress block: a bar printed at every quarter.
final class ProgressPrinter: Sendable {
    private let label: String
    private let output: SampleOutput
    private let state = Mutex((reports: 0, quarter: 0))

    init(label: String, output: SampleOutput) {
        self.label = label
        self.output = output
    }

    /// How many reports arrived.
    var reports: Int { state.withLock { $0.reports } }

    /// Prints a bar when the transfer passes 25%, 50%, 75% or 100%.
    func show(_ progress: TransferProgress) {
        let fraction = progress.fractionCompleted ?? 0
        let quarter = Int(fraction * 4)
        let isNewQuarter = state.withLock { state in
            state.reports += 1
            guard quarter > state.quarter else { return false }
            state.quarter = quarter
            return true
        }
        guard isNewQuarter else { return }
        let filled = Int(fraction * 20)
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: 20 - filled)
        let bytes = "\(progress.completedBytes) of \(progress.totalBytes ?? 0) bytes"
        output.say("   \(label) [\(bar)] \(Int(fraction * 100))%  \(bytes)")
    }
}
