import Foundation
import HTTPCore
import Synchronization

/// One entry of a ``StubTable``: what it matches and how it answers. Keep it to ask how often
/// it answered, or to remove it (``StubTable/remove(_:)``).
public final class StubRoute: Sendable, CustomStringConvertible {
    /// The method it matches; `nil` matches any.
    public let method: HTTPMethod?
    /// The URL pattern, as given.
    public var pattern: String { urlPattern.text }

    let urlPattern: StubPattern
    private let query: [String: String]
    private let body: StubBodyMatcher?
    private let predicate: (@Sendable (StubRequest) -> Bool)?
    private let answer: @Sendable (StubRequest, Int) throws -> MockResponse?
    private let hits = Mutex(0)

    init(method: HTTPMethod?, pattern: String, query: [String: String], body: StubBodyMatcher?,
         predicate: (@Sendable (StubRequest) -> Bool)?, answer: @escaping @Sendable (StubRequest, Int) throws -> MockResponse?) {
        self.method = method
        urlPattern = StubPattern(pattern)
        self.query = query
        self.body = body
        self.predicate = predicate
        self.answer = answer
    }

    /// The requests it answered so far.
    public var hitCount: Int { hits.withLock { $0 } }

    /// A one-line description, for people.
    public var description: String {
        var text = "\(method?.rawValue ?? "any method") \(pattern)"
        if !query.isEmpty { text += " with query \(query.sorted { $0.key < $1.key })" }
        if let body { text += " with \(body.summary)" }
        return text
    }

    /// The request as the route sees it, when it matches.
    func match(_ request: HTTPRequest) -> StubRequest? {
        if let method, method != request.method, !(method == .get && request.method == .head) { return nil }
        guard let parameters = urlPattern.match(request.url) else { return nil }
        let stubRequest = StubRequest(request, parameters: parameters)
        if !query.isEmpty || !urlPattern.queryItems.isEmpty {
            let items = stubRequest.queryItems
            guard query.allSatisfy({ name, value in items.contains { $0.name == name && $0.value == value } }),
                  urlPattern.queryItems.allSatisfy({ wanted in items.contains(wanted) }) else { return nil }
        }
        if let body, !body.matches(stubRequest) { return nil }
        if let predicate, !predicate(stubRequest) { return nil }
        return stubRequest
    }

    /// The answer of the route's next hit; `nil` when it has no responses.
    func respond(to request: StubRequest) throws -> MockResponse? {
        let hit = hits.withLock { hits in
            defer { hits += 1 }
            return hits
        }
        return try answer(request, hit)
    }
}
