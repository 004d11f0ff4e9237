import Foundation
import HTTPCore

/// One stored response: what the store writes and reads back, and what the freshness rules
/// of ``CacheStrategy`` look at.
package struct CacheEntry: Sendable, Hashable {
    /// The key it is stored under; compared in full on every read.
    package var key: CacheKey
    /// The URL of the response (after redirects).
    package var url: URL
    /// The status code.
    package var statusCode: Int
    /// The response header fields (for a refreshed entry, merged with those of the `304`).
    package var headers: HTTPHeaders
    /// The HTTP version of the response.
    package var httpVersion: HTTPVersion
    /// The body.
    package var body: Data
    /// When the request that produced (or last revalidated) the response was sent.
    package var requestSentAt: Date
    /// When the response (or the `304` that revalidated it) was received and stored.
    package var storedAt: Date
    /// For `Vary`: the request's values of the header fields the response varies on, keyed
    /// by lower-cased name (`""` for an absent field). Default empty.
    package var varyValues: [String: String]

    /// Makes an entry; `varyValues` defaults to none.
    package init(key: CacheKey, url: URL, statusCode: Int, headers: HTTPHeaders, httpVersion: HTTPVersion = .unknown,
                body: Data, requestSentAt: Date, storedAt: Date, varyValues: [String: String] = [:]) {
        self.key = key
        self.url = url
        self.statusCode = statusCode
        self.headers = headers
        self.httpVersion = httpVersion
        self.body = body
        self.requestSentAt = requestSentAt
        self.storedAt = storedAt
        self.varyValues = varyValues
    }

    /// Makes the entry for a network response to `request`, recording the request's values
    /// of the fields named by the response's `Vary`.
    package init(key: CacheKey, request: HTTPRequest, response: HTTPResponse, requestSentAt: Date, storedAt: Date) {
        var vary: [String: String] = [:]
        for name in CacheEntry.varyNames(response.headers) where name != "*" {
            vary[name] = request.headers.values(for: name).joined(separator: ", ")
        }
        self.init(key: key, url: response.url, statusCode: response.statusCode, headers: response.headers,
                  httpVersion: response.httpVersion, body: response.body, requestSentAt: requestSentAt,
                  storedAt: storedAt, varyValues: vary)
    }

    /// The `ETag` validator, if any.
    package var etag: String? { headers["ETag"] }

    /// The `Last-Modified` validator, if any.
    package var lastModified: String? { headers["Last-Modified"] }

    /// When the entry stops being fresh under RFC 9111 (ignoring request directives), or
    /// `nil` when it has no freshness at all.
    package var expiresAt: Date? {
        let lifetime = CacheStrategy.freshnessLifetime(statusCode: statusCode, headers: headers, receivedAt: storedAt)
        guard lifetime > 0 else { return nil }
        return storedAt.addingTimeInterval(lifetime - CacheStrategy.initialAge(of: self))
    }

    /// The stored copy as a response, flagged ``ResponseSource/cache`` (timings are zero).
    package var response: HTTPResponse {
        HTTPResponse(statusCode: statusCode, headers: headers, body: body, url: url, httpVersion: httpVersion,
                     source: .cache)
    }

    /// The lower-cased field names of every `Vary` field.
    static func varyNames(_ headers: HTTPHeaders) -> [String] {
        headers.values(for: "Vary").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty }
    }
}
