import Digest
import Foundation
import HTTPCore

extension CacheKey {
    /// The canonical text of a URL: scheme and host lower-cased, the default port, user
    /// information and fragment dropped, an empty path as `/`, the query parameters
    /// percent-encoded one way and ordered by name (parameters of the same name keep their
    /// order, since `ids[]=1&ids[]=2` and `ids[]=2&ids[]=1` are different lists), and ignored
    /// parameters removed. `nil` without a scheme or host.
    package static func canonicalURL(_ url: URL, ignoredParameters: Set<String> = []) -> String? {
        onePassCanonicalURL(url.absoluteString, ignoredParameters: ignoredParameters)
            ?? URLComponents(url: url, resolvingAgainstBaseURL: true).flatMap { canonicalURL($0, ignoredParameters: ignoredParameters) }
    }

    static func canonicalURL(_ components: URLComponents, ignoredParameters: Set<String>) -> String? {
        guard let scheme = components.scheme?.lowercased(), !scheme.isEmpty,
              let rawHost = components.percentEncodedHost, !rawHost.isEmpty
        else { return nil }
        // A `+unix` URL's host is a socket's path, where case matters.
        var host = scheme.hasSuffix("+unix") ? rawHost : rawHost.lowercased()
        if host.contains(":"), !host.hasPrefix("[") { host = "[\(host)]" }
        var text = scheme + "://" + host
        if let port = components.port, !(scheme == "http" && port == 80), !(scheme == "https" && port == 443) {
            text += ":\(port)"
        }
        let path = components.percentEncodedPath
        text += path.isEmpty ? "/" : path
        if let query = components.percentEncodedQuery,
           let canonical = canonicalQuery(query, ignoredParameters: ignoredParameters) {
            text += "?" + canonical
        }
        return text
    }

    /// The canonical form of a `name=value&…` string (a URL query or a form body); `nil`
    /// when no parameter is left.
    static func canonicalQuery(_ query: String, ignoredParameters: Set<String>) -> String? {
        var pairs: [(offset: Int, name: String, pair: String)] = []
        for (offset, piece) in query.split(separator: "&", omittingEmptySubsequences: true).enumerated() {
            let parts = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if !ignoredParameters.isEmpty {
                let rawName = String(parts[0])
                if isIgnored(rawName.removingPercentEncoding ?? rawName, ignoredParameters) { continue }
            }
            let encodedName = normalizedComponent(parts[0])
            if parts.count == 2 {
                pairs.append((offset, encodedName, encodedName + "=" + normalizedComponent(parts[1])))
            } else {
                pairs.append((offset, encodedName, encodedName))
            }
        }
        guard !pairs.isEmpty else { return nil }
        // The offset breaks ties so that equal names keep their order whatever sort is used.
        pairs.sort { $0.name != $1.name ? $0.name < $1.name : $0.offset < $1.offset }
        return pairs.map(\.pair).joined(separator: "&")
    }

    /// One percent-encoding for a name or value, so `%71` and `q` are the same. A raw `+`
    /// stays a `+` (in forms it means a space) and never meets an encoded `%2B` (a plus).
    /// Invalid escapes are kept as they are.
    static func normalizedComponent(_ raw: Substring) -> String {
        // The common case — unreserved characters and `+` only — is its own canonical form;
        // Foundation's percent-decoding was most of a key's cost.
        if raw.utf8.allSatisfy({ $0 == UInt8(ascii: "+") || isCanonicallyUnencoded($0) }) { return String(raw) }
        return raw.split(separator: "+", omittingEmptySubsequences: false).map { piece in
            piece.removingPercentEncoding.map(canonicalPercentEncoding) ?? String(piece)
        }.joined(separator: "+")
    }

    /// The bytes the key's canonical form leaves as they are: RFC 3986's unreserved characters,
    /// `?` and `/`. Part of the key format (``version``): the key is a normal form, not the
    /// bytes sent, so any one choice would do, but keys name files on disk, so it must never
    /// follow another encoder's changes.
    static func isCanonicallyUnencoded(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "?"), UInt8(ascii: "/"):
            true
        default:
            false
        }
    }

    /// Percent-encodes (upper-case hex) every byte ``isCanonicallyUnencoded(_:)`` does not keep.
    static func canonicalPercentEncoding(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isCanonicallyUnencoded(byte) {
                bytes.append(byte)
            } else {
                bytes.append(contentsOf: [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether a parameter name, or its base before the first `[`, is ignored.
    static func isIgnored(_ name: String, _ ignoredParameters: Set<String>) -> Bool {
        guard !ignoredParameters.isEmpty else { return false }
        if ignoredParameters.contains(name) { return true }
        if let bracket = name.firstIndex(of: "[") { return ignoredParameters.contains(String(name[..<bracket])) }
        return false
    }

    /// The SHA-256 hex of the body in canonical form, `"none"` without a body, `nil` when
    /// the body cannot be part of a key (multipart, an unreadable file).
    static func bodyDigest(_ body: HTTPBody, contentType: String?, ignoredParameters: Set<String>) -> String? {
        switch body {
        case .none:
            return "none"
        case .data(let data):
            return SHA256.hexDigest(canonicalBody(data, contentType: contentType, ignoredParameters: ignoredParameters))
        case .file(let url):
            return fileDigest(url)
        case .multipart, .stream:
            // Multipart bodies carry a random boundary and may stream files, and a stream is
            // read once: no stable form.
            return nil
        }
    }

    /// HTTPCore's encoders already write form and JSON bodies with sorted keys, so bytes are
    /// canonical as they are; only removing ignored parameters needs parsing. A JSON body is
    /// then written again by the same parameter encoder that wrote it for the wire, so ignoring
    /// a parameter the body does not hold leaves its key unchanged.
    static func canonicalBody(_ data: Data, contentType: String?, ignoredParameters: Set<String>) -> Data {
        guard !ignoredParameters.isEmpty, let contentType = contentType?.lowercased() else { return data }
        if contentType.hasPrefix("application/x-www-form-urlencoded") {
            let text = String(decoding: data, as: UTF8.self)
            return Data((canonicalQuery(text, ignoredParameters: ignoredParameters) ?? "").utf8)
        }
        let mime = contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        if mime == "application/json" || mime.hasSuffix("+json") {
            guard let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
                  var dictionary = object as? [String: Any] else { return data }
            for key in dictionary.keys where isIgnored(key, ignoredParameters) { dictionary[key] = nil }
            guard let parameters = try? Parameter.dictionary(from: dictionary),
                  let canonical = try? ParameterEncoding.jsonData(.dictionary(parameters)) else { return data }
            return canonical
        }
        return data
    }

    /// Streams a file body through SHA-256 in constant memory.
    static func fileDigest(_ url: URL) -> String? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        var hasher = SHA256()
        while true {
            guard let chunk = try? handle.read(upToCount: 1 << 16) else { return nil }
            if chunk.isEmpty { break }
            hasher.update(data: chunk)
        }
        return SHA256.hexString(hasher.finalize())
    }

    /// The credentials digest's line for a user in the URL, `nil` without one.
    static func userInfo(_ components: URLComponents) -> String? {
        guard components.percentEncodedUser != nil || components.percentEncodedPassword != nil else { return nil }
        return "userinfo:" + (components.percentEncodedUser ?? "") + ":" + (components.percentEncodedPassword ?? "")
    }

    /// A digest of everything that identifies the user (credential-like headers, a user in
    /// the URL, a proxy's and the origin's credentials) and of the key headers, `"none"` when there is nothing of that.
    static func credentialsDigest(_ request: HTTPRequest, userInfo: String?, keyHeaders: Set<String>) -> String {
        var parts: [String] = []
        let extra = keyHeaders.isEmpty ? [] : Set(keyHeaders.map { $0.lowercased() })
        // Sorted by name, each with its values in order: the order of fields does not matter,
        // the order of one field's values does.
        let names = request.headers.names.map { $0.lowercased() }
            .filter { HTTPHeaders.isCredential($0) || extra.contains($0) }
        for name in names.sorted() {
            parts.append(name + ":" + request.headers.values(for: name).joined(separator: "\n"))
        }
        if let userInfo { parts.append(userInfo) }
        // A proxy that authenticates may answer per user (a filtering proxy, a captive
        // portal): its credentials select the entry like the origin's do.
        if let credentials = request.proxy.credentials {
            parts.append("proxy:" + request.proxy.description + "\n" + credentials.user + ":" + credentials.password)
        }
        // The origin's credentials answer its challenge: another user may get another answer.
        // The user's length goes first, so no user and password run into another pair's.
        if let authentication = request.authentication {
            parts.append("authentication:\(authentication.scheme)\n\(authentication.user.utf8.count):"
                + authentication.user + ":" + authentication.password)
        }
        return parts.isEmpty ? "none" : SHA256.hexDigest(parts.joined(separator: "\n"))
    }
}
