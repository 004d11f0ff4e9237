import CCurl
import HTTPCore

/// libcurl's process-wide state: `curl_global_init` exactly once, before the first handle.
enum CurlGlobal {
    /// Whether initialisation succeeded. Evaluated once, thread-safely (a `static let`).
    static let isInitialized: Bool = curl_global_init(Int(CURL_GLOBAL_SSL | CURL_GLOBAL_WIN32)) == CURLE_OK

    /// The libcurl version string, e.g. `"7.88.1"`.
    static let version = String(cString: ccurl_version_string())
}
