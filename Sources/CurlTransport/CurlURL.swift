import CCurl
import HTTPCore

/// A libcurl URL handle (`curl_url`), the parser libcurl's own redirect following used. Lives
/// for one resolution.
final class CurlURL {
    /// What decides whether two URLs are the same origin.
    struct Origin: Equatable {
        let scheme: String
        let host: String
        let port: String
    }

    /// The parts this code sets.
    enum Part {
        case url, user, password, fragment

        var curlPart: CURLUPart {
            switch self {
            case .url: CURLUPART_URL
            case .user: CURLUPART_USER
            case .password: CURLUPART_PASSWORD
            case .fragment: CURLUPART_FRAGMENT
            }
        }
    }

    private let handle: OpaquePointer

    init?(_ absolute: String) {
        guard let handle = curl_url() else { return nil }
        self.handle = handle
        guard set(.url, absolute) else { return nil }
    }

    deinit { curl_url_cleanup(handle) }

    /// Sets `part` (`nil` clears it); `false` when libcurl refuses the value.
    func set(_ part: Part, _ value: String?, flags: UInt32 = 0) -> Bool {
        guard let value else { return curl_url_set(handle, part.curlPart, nil, flags) == CURLUE_OK }
        return value.withCString { curl_url_set(handle, part.curlPart, $0, flags) } == CURLUE_OK
    }

    private func value(of part: CURLUPart, flags: UInt32 = 0) -> String? {
        var pointer: UnsafeMutablePointer<CChar>?
        guard curl_url_get(handle, part, &pointer, flags) == CURLUE_OK, let pointer else { return nil }
        defer { curl_free(pointer) }
        return String(cString: pointer)
    }

    /// The whole URL.
    var text: String? { value(of: CURLUPART_URL) }

    /// Scheme, host (lowercased) and port (the scheme's default when the URL names none).
    var origin: Origin? {
        guard let scheme = value(of: CURLUPART_SCHEME), let host = value(of: CURLUPART_HOST),
              let port = value(of: CURLUPART_PORT, flags: UInt32(CURLU_DEFAULT_PORT)) else { return nil }
        return Origin(scheme: scheme.lowercased(), host: host.lowercased(), port: port)
    }
}
