import AFStyle
import Foundation
import Synchronization

/// A session across calls and front ends: a login whose cookie arrives on a redirect hop, calls
/// that send it through Chain and HTTPSessionManager sharing one jar, a Digest-protected call,
/// a redirect handler, and a logout that empties the jar.
public enum SessionSample {
    public static func run(baseURL: URL, output: SampleOutput) async throws {
        // One jar for this sample (the default would be CookieJar.shared, the process's).
        let jar = CookieJar()
        var configuration = ChainConfiguration(baseURL: baseURL)
        configuration.cookieJar = jar

        // 1) The login answers 302 with Set-Cookie; the next hop (/cookies) already sends it.
        let login = try await configuration.url("cookies/set?session=s3ss10n&theme=dark").responseValue()
        let hops = login.redirects.map { "\($0.statusCode) \($0.url.path)" }.joined(separator: ", ")
        output.say("1) login through \(hops) → \(login.url.path): the server saw \(cookieNames(in: login.body))")
        try expect(cookieNames(in: login.body) == "session, theme", "the redirect hop to send both cookies")
        output.say("   the jar holds: \(jar.allCookies.map { "\($0.name) for \($0.domain)\($0.path)" }.joined(separator: ", "))")

        // 2) A later call sends the cookie; the curl rendering shows it, redacted.
        let profile = configuration.url("cookies")
        let later = try await profile.responseValue()
        output.say("2) a later call sent \(cookieNames(in: later.body)); as curl: \(profile.curlCommand(multiline: false))")
        try expect(cookieNames(in: later.body) == "session, theme", "the later call to send the session")

        // 3) Digest: the password never travels; libcurl answers the 401 challenge.
        let digest = try await configuration.url("digest-auth/auth/demo/secret")
            .authentication(.digest(user: "demo", password: "secret")).responseValue()
        output.say("3) Digest-protected call: HTTP \(digest.statusCode) \(String(decoding: digest.body, as: UTF8.self))")
        try expect(digest.statusCode == 200, "Digest to authenticate")

        // 4) The AFStyle facade with the same jar: the session goes along.
        let manager = HTTPSessionManager(baseURL: baseURL)
        manager.cookieJar = jar
        let seen = try await AFStyleSample.call { done in
            manager.GET("cookies", parameters: nil, headers: nil, progress: nil,
                        success: { _, object in done(.success(cookieNames(inObject: object))) },
                        failure: { _, error in done(.failure(error)) })
        }
        output.say("4) HTTPSessionManager with the same jar sent \(seen)")
        try expect(seen == "session, theme", "the manager to send the session")

        // 5) AFNetworking's redirection block: each hop, with its task.
        let hopLines = Mutex<[String]>([])
        manager.setTaskWillPerformHTTPRedirectionBlock { task, response, request in
            hopLines.withLock { $0.append("task \(task.taskIdentifier): \(response.statusCode) → \(request.url.path)") }
            return request
        }
        _ = try await AFStyleSample.call { done in
            manager.GET("redirect/2", parameters: nil, headers: nil, progress: nil,
                        success: { _, _ in done(.success(true)) }, failure: { _, error in done(.failure(error)) })
        }
        let followed = hopLines.withLock { $0 }
        output.say("5) the redirection block saw: \(followed.joined(separator: "; "))")
        try expect(followed.count == 2, "two hops")

        // 6) Logout: the server expires the cookie, and the jar lets it go.
        _ = try await configuration.url("cookies/delete?session&theme").responseValue()
        output.say("6) after logout the jar holds \(jar.allCookies.count) cookies")
        try expect(jar.allCookies.isEmpty, "an empty jar after logout")
    }

    /// The names in a `/cookies` echo, sorted and joined.
    static func cookieNames(in body: Data) -> String {
        cookieNames(inObject: try? JSONSerialization.jsonObject(with: body))
    }

    static func cookieNames(inObject object: Any?) -> String {
        let cookies = (object as? [String: Any])?["cookies"] as? [String: Any] ?? [:]
        return cookies.keys.sorted().joined(separator: ", ")
    }
}

extension Request {
    /// The whole response, for a sample that shows its URL, hops and body.
    func responseValue() async throws(NetworkError) -> HTTPResponse {
        let delivery: Delivery<Data> = await withCheckedContinuation { continuation in
            responseDelivery(using: .data) { continuation.resume(returning: $0) }
        }
        if let error = delivery.error { throw error }
        guard let response = delivery.response else { throw NetworkError(.invalidResponse, "a delivery without a response") }
        return response
    }
}
