import Foundation
import HTTPCore

/// The `Cache-Control` directives of a request or response (RFC 9111 §5.2), parsed once.
///
/// Every `Cache-Control` field is read; when a directive repeats, the first occurrence wins.
/// A `max-age` whose value is not a number counts as `0` (stale), as RFC 9111 §4.2.1 advises.
/// A request without `Cache-Control` but with `Pragma: no-cache` counts as `no-cache`.
package struct CacheControl: Sendable, Hashable {
    /// `max-age`, in seconds. Default `nil` (absent).
    package var maxAge: TimeInterval?
    /// `s-maxage`, in seconds (parsed for completeness; a private cache ignores it). Default `nil`.
    package var sharedMaxAge: TimeInterval?
    /// `max-stale` (requests): how stale a stored response may be; `.infinity` when it has no
    /// value. Default `nil`.
    package var maxStale: TimeInterval?
    /// `min-fresh` (requests), in seconds. Default `nil`.
    package var minFresh: TimeInterval?
    /// `no-cache`: a stored response must be revalidated before use. Default `false`.
    package var noCache = false
    /// `no-store`: never store the response. Default `false`.
    package var noStore = false
    /// `must-revalidate`: once stale, the response may not be used without revalidation. Default `false`.
    package var mustRevalidate = false
    /// `public`. Default `false`.
    package var isPublic = false
    /// `private`. Default `false`.
    package var isPrivate = false
    /// `only-if-cached` (requests): never go to the network. Default `false`.
    package var onlyIfCached = false
    /// `immutable`. Default `false`.
    package var immutable = false

    /// Makes an empty set of directives (everything absent).
    package init() {}

    /// Parses every `Cache-Control` field of `headers` (and `Pragma: no-cache` when there is none).
    package init(headers: HTTPHeaders) {
        let values = headers.values(for: "Cache-Control")
        self.init(values.joined(separator: ","))
        if values.isEmpty, headers.values(for: "Pragma").contains(where: { $0.lowercased().contains("no-cache") }) {
            noCache = true
        }
    }

    /// Parses one `Cache-Control` value such as `public, max-age=60`.
    package init(_ value: String) {
        var seen: Set<String> = []
        for directive in CacheControl.split(value) {
            let parts = directive.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = parts[0].trimmingCharacters(in: .whitespaces).lowercased()
            guard !name.isEmpty, seen.insert(name).inserted else { continue }
            let argument = parts.count == 2
                ? parts[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                : nil
            switch name {
            case "max-age": maxAge = CacheControl.deltaSeconds(argument) ?? 0
            case "s-maxage": sharedMaxAge = CacheControl.deltaSeconds(argument) ?? 0
            case "max-stale": maxStale = argument.map { CacheControl.deltaSeconds($0) ?? 0 } ?? .infinity
            case "min-fresh": minFresh = CacheControl.deltaSeconds(argument) ?? 0
            case "no-cache": noCache = true
            case "no-store": noStore = true
            case "must-revalidate", "proxy-revalidate": mustRevalidate = true
            case "public": isPublic = true
            case "private": isPrivate = true
            case "only-if-cached": onlyIfCached = true
            case "immutable": immutable = true
            default: break
            }
        }
    }

    /// Splits on commas outside quoted strings (`no-cache="Set-Cookie, Foo"` is one directive).
    static func split(_ value: String) -> [String] {
        var directives: [String] = []
        var current = ""
        var quoted = false
        for character in value {
            if character == "\"" { quoted.toggle() }
            if character == ",", !quoted {
                directives.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        directives.append(current)
        return directives
    }

    /// RFC 9111 §1.2.2 delta-seconds: digits only; values too large to represent become
    /// 2^31. `nil` when absent or not a number.
    static func deltaSeconds(_ text: String?) -> TimeInterval? {
        guard let text, !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        guard let value = Int64(text), value <= 2_147_483_648 else { return 2_147_483_648 }
        return TimeInterval(value)
    }
}
