import Foundation

/// The `{errcode, errmsg, data}` article: every answer is HTTP 200, and the real outcome is
/// the `errcode` inside. With an envelope the library checks that code once for every call,
/// instead of an `if json["errcode"] == 0` in every completion handler.
public enum EnvelopeSample {
    public static func run(baseURL: URL, output: SampleOutput) async throws {
        // `.errcode` = code in "errcode", message in "errmsg", payload in "data", success 0.
        let api = ChainConfiguration(baseURL: baseURL, envelope: .errcode)

        // A model: only `data` is decoded into the type; the envelope around it is checked and dropped.
        let user = try await api.url("envelope/user/101").value(User.self)
        output.say("data decoded as a User: \(user.name) (id \(user.id))")
        try expect(user.name == "wiki", "user 101 to be wiki")

        // "Result only": the caller just needs to know it worked (`Void`), so nothing is decoded.
        try await api.url("envelope/result").method(.post).response()
        output.say("result-only call: succeeded (errcode 0)")

        // A business error: HTTP 200, but errcode ≠ 0. It fails like any other error, with the
        // server's code and message, so the app can show "invalid token" as it is.
        let failed = try await expectFailure("errcode 40001") { try await api.url("envelope/fail").response() }
        guard case .business(let code, let message) = failed.kind else {
            throw SampleFailure("a business error, got: \(failed)")
        }
        output.say("business error: errcode \(code), errmsg \"\(message)\" (HTTP status was \(failed.statusCode ?? 0))")
        try expect(code == "40001" && message == "invalid token", "errcode 40001, invalid token")

        // The same for a model type: an unknown user is errcode 40004, not a decoding error.
        let missing = try await expectFailure("an unknown user") { try await api.url("envelope/user/999").value(User.self) }
        output.say("unknown user: \(missing.kind)")
        try expect(missing.kind == .business(code: "40004", message: "user not found"), "errcode 40004 for user 999")
    }
}
