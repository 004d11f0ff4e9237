import Foundation

/// Which proxy a request goes through.
///
/// The default, ``environment``, is what curl(1) does: the `http_proxy`, `https_proxy`
/// (`HTTPS_PROXY`), `all_proxy` and `no_proxy` variables of the process apply. An explicit
/// proxy replaces them; ``none`` connects directly whatever they say.
///
/// ```swift
/// Request.url("https://api.example.com/user")
///     .proxy(.http(host: "proxy.corp", port: 3128, credentials: ProxyCredentials(user: "me", password: secret)))
/// ```
///
/// Credentials are never logged (``description`` leaves them out, the curl rendering and the
/// logger redact them) and are part of the cache key's credential digest.
///
/// A client pools its connections, tunnels through an HTTP proxy included, and libcurl matches
/// a pooled tunnel by the proxy's host and port, not by its credentials: requests of one
/// client with different credentials for the same HTTP proxy may share an authenticated
/// tunnel. Use one `HTTPClient` per proxy identity. (SOCKS5 connections are matched with
/// their credentials.)
public struct Proxy: Sendable, Hashable, CustomStringConvertible {
    /// The kinds of proxy.
    public enum Kind: Sendable, Hashable {
        /// The proxy the environment variables name, if any.
        case environment
        /// No proxy at all.
        case direct
        /// An HTTP proxy, spoken to in clear text: `http` requests go to it as absolute-form
        /// requests, `https` requests through a `CONNECT` tunnel.
        case http
        /// An HTTP proxy reached over TLS (the tunnel to an `https` origin is then TLS inside TLS).
        case https
        /// A SOCKS5 proxy; host names are resolved by the proxy (curl's `socks5h`).
        case socks5
    }

    /// The kind. Default ``Kind/environment``.
    public var kind: Kind
    /// The proxy's host name or address; empty for ``environment`` and ``none``.
    public var host: String
    /// The proxy's port; 0 for ``environment`` and ``none``.
    public var port: Int
    /// Credentials for the proxy. Default `nil` (none sent).
    public var credentials: ProxyCredentials?
    /// How the TLS connection to an ``Kind/https`` proxy is verified: its own CA file and
    /// pinned key, independent of the origin's ``HTTPRequest/tls``. Default `TLSOptions()`:
    /// the proxy's certificate and name are verified against the system store.
    public var tls: TLSOptions
    /// Hosts reached directly rather than through this proxy, curl's `CURLOPT_NOPROXY` list:
    /// a name matches itself and its subdomains (`example.com` matches `api.example.com`), an
    /// address matches itself, `*` matches every host. Default none.
    public var bypass: [String]

    /// The environment's proxy: `http_proxy`, `https_proxy` (or `HTTPS_PROXY`), `all_proxy`
    /// and `no_proxy`, as curl reads them (`HTTP_PROXY` in capitals is ignored, as curl does,
    /// since a CGI environment sets it from a request header). The default.
    public static let environment = Proxy(kind: .environment, host: "", port: 0)
    /// No proxy: connect directly, whatever the environment says.
    public static let none = Proxy(kind: .direct, host: "", port: 0)

    /// An HTTP proxy at `host:port`.
    /// - Parameter credentials: sent to the proxy (`Proxy-Authorization`). Default `nil`.
    public static func http(host: String, port: Int, credentials: ProxyCredentials? = nil) -> Proxy {
        Proxy(kind: .http, host: host, port: port, credentials: credentials)
    }

    /// An HTTP proxy at `host:port` reached over TLS.
    /// - Parameters:
    ///   - credentials: sent to the proxy inside the TLS connection. Default `nil`.
    ///   - tls: how the proxy's certificate is verified (its CA file, a pinned key, a client
    ///     certificate for the proxy). Default `TLSOptions()`: the system store.
    public static func https(host: String, port: Int, credentials: ProxyCredentials? = nil,
                             tls: TLSOptions = TLSOptions()) -> Proxy {
        Proxy(kind: .https, host: host, port: port, credentials: credentials, tls: tls)
    }

    /// A SOCKS5 proxy at `host:port`, which resolves the host names itself.
    /// - Parameter credentials: the user name and password of SOCKS5's username method
    ///   (RFC 1929); their ``ProxyCredentials/scheme`` is not used. Default `nil` (no authentication).
    public static func socks5(host: String, port: Int, credentials: ProxyCredentials? = nil) -> Proxy {
        Proxy(kind: .socks5, host: host, port: port, credentials: credentials)
    }

    /// Makes a proxy; the static factories are the usual way. Defaults: no credentials,
    /// `TLSOptions()` (used by ``Kind/https`` proxies only), no bypass entries.
    public init(kind: Kind, host: String, port: Int, credentials: ProxyCredentials? = nil,
                tls: TLSOptions = TLSOptions(), bypass: [String] = []) {
        self.kind = kind
        self.host = host
        self.port = port
        self.credentials = credentials
        self.tls = tls
        self.bypass = bypass
    }

    /// This proxy, with `hosts` reached directly (see ``bypass``).
    public func bypassing(_ hosts: [String]) -> Proxy {
        var copy = self
        copy.bypass += hosts
        return copy
    }

    /// The proxy as libcurl's `CURLOPT_PROXY` takes it (`http://host:port`, `socks5h://…`),
    /// without credentials; `nil` for ``environment``, `""` (no proxy) for ``none``.
    package var curlProxyURL: String? {
        let scheme: String
        switch kind {
        case .environment: return nil
        case .direct: return ""
        case .http: scheme = "http"
        case .https: scheme = "https"
        case .socks5: scheme = "socks5h"
        }
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "\(scheme)://\(bracketed):\(port)"
    }

    /// The proxy for people and error messages: its URL without credentials, or
    /// `"the environment's proxy"`, or `"no proxy"`.
    public var description: String {
        switch kind {
        case .environment: "the environment's proxy"
        case .direct: "no proxy"
        default: curlProxyURL ?? ""
        }
    }

    /// Whether `host` (lower-cased) is reached directly under curl's `NOPROXY` rules: `*`
    /// matches every host, an entry matches itself and its subdomains (a leading `.` is
    /// ignored). CIDR entries (`10.0.0.0/8`, which libcurl also honours) are not matched here:
    /// this names the proxy in messages and never decides where a request goes.
    package static func bypassList(_ entries: [String], matches host: String) -> Bool {
        entries.contains { entry in
            var entry = entry.trimmingCharacters(in: .whitespaces).lowercased()
            if entry == "*" { return true }
            if entry.hasPrefix(".") { entry.removeFirst() }
            return !entry.isEmpty && (host == entry || host.hasSuffix("." + entry))
        }
    }

    /// Refuses what libcurl would misread: an empty host, a port outside 1–65535, CR, LF, NUL,
    /// a space or a URL delimiter (`/ ? # @`) in the host, CR, LF, NUL, a space or a comma in a
    /// bypass entry, a NUL in the credentials.
    /// - Throws: ``NetworkError/Kind/invalidRequest`` naming the problem.
    package func validate() throws(NetworkError) {
        guard kind != .environment, kind != .direct else { return }
        func control(_ scalar: Unicode.Scalar) -> Bool { scalar == "\r" || scalar == "\n" || scalar == "\0" || scalar == " " }
        guard !host.isEmpty, !host.unicodeScalars.contains(where: { control($0) || "/?#@".unicodeScalars.contains($0) }) else {
            throw NetworkError(.invalidRequest, "the proxy host \(host.debugDescription) is not a host name or address")
        }
        guard (1...65535).contains(port) else {
            throw NetworkError(.invalidRequest, "the proxy port \(port) is not between 1 and 65535")
        }
        if let entry = bypass.first(where: { $0.isEmpty || $0.contains(",") || $0.unicodeScalars.contains(where: control) }) {
            throw NetworkError(.invalidRequest, "the proxy bypass entry \(entry.debugDescription) is not a host name or address")
        }
        if let credentials {
            let all = credentials.user + credentials.password
            guard !all.unicodeScalars.contains(where: { $0 == "\0" }) else {
                throw NetworkError(.invalidRequest, "the proxy credentials contain a NUL character")
            }
        }
    }
}

/// A user name and password for a proxy. Printing, `dump` and the debugger show the user
/// name only.
public struct ProxyCredentials: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// How an HTTP proxy is authenticated.
    public enum Scheme: Sendable, Hashable {
        /// `Basic`, sent with the first request (in clear text to an ``Proxy/Kind/http`` proxy).
        case basic
        /// `Digest`, answered after the proxy's `407` challenge.
        case digest
        /// NTLM, answered after the proxy's challenge.
        case ntlm
        /// Whichever of these the proxy offers, the most secure first (libcurl's `CURLAUTH_ANY`);
        /// costs a round trip for the challenge.
        case any
    }

    /// The user name.
    public var user: String
    /// The password.
    public var password: String
    /// The scheme for HTTP proxies. Default ``Scheme/basic``.
    public var scheme: Scheme

    /// Makes credentials; the scheme defaults to ``Scheme/basic``.
    public init(user: String, password: String, scheme: Scheme = .basic) {
        self.user = user
        self.password = password
        self.scheme = scheme
    }

    /// The user name only: the password is never printed.
    public var description: String { "ProxyCredentials(user: \(user.debugDescription), password: <redacted>)" }

    /// The user name and scheme; the password as `<redacted>`.
    public var customMirror: Mirror {
        Mirror(self, children: ["user": user, "password": "<redacted>", "scheme": scheme])
    }
}
