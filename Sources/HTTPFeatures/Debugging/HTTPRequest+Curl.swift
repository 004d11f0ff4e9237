import Foundation
import HTTPCore

extension HTTPRequest {
    /// The request as a `curl` command line that a POSIX shell runs as it is, with secrets
    /// hidden by `redaction` — for logs, bug reports and "copy as cURL".
    ///
    /// Every argument is single-quoted. The method, headers, body (`--data-binary`; a file as
    /// `@path`; multipart fields as `--form-string`/`-F`), redirects (`-L`), a total timeout
    /// (`--max-time`), the HTTP version, a download destination (`-o`), insecure TLS (`-k`),
    /// the proxy (`-x`, `--proxy-user` with the password hidden under any redaction but
    /// ``Redaction/none``, `--noproxy`), the origin's credentials (`--user` with the password
    /// hidden the same way, and `--digest`, `--ntlm`, `--negotiate` or `--anyauth`) and a Unix
    /// socket (`--unix-socket`; an `http+unix://` URL is shown as the `http://localhost/…`
    /// libcurl gets) are rendered; the `User-Agent` and `Accept-Encoding` the engine adds are
    /// not part of the request value). A body is redacted by what it is, whatever its
    /// `Content-Type` claims: a JSON object or array as JSON, a form-encoded body as a form;
    /// any other body, and one longer than `maximumBodyBytes`, is shown as a `<N bytes>`
    /// placeholder (under ``Redaction/none``, printable text is shown as it is), so the
    /// command still shows what was sent but no longer reproduces it.
    ///
    /// - Parameters:
    ///   - redaction: what to hide. Default ``Redaction/default`` (`Authorization`, `Cookie`,
    ///     password- and token-like parameters in the query, form, JSON and multipart bodies).
    ///   - maximumBodyBytes: the longest body rendered in full. Default 65 536.
    ///   - multiline: one argument per line, joined with ` \` continuations. Default `true`.
    public func curlCommand(redacting redaction: Redaction = .default, maximumBodyBytes: Int = 65_536,
                            multiline: Bool = true) -> String {
        var arguments: [String] = []
        let hasBody: Bool
        switch body {
        case .none: hasBody = false
        default: hasBody = true
        }
        if method == .head {
            arguments.append("--head")
        } else if method != .get || hasBody {
            arguments.append("-X \(CurlQuoting.quote(method.rawValue))")
        }
        if case .follow(let maximum) = redirectPolicy {
            arguments.append("-L --max-redirs \(maximum)")
        }
        // An infinite or NaN total is no limit to render.
        if timeouts.total > 0, timeouts.total.isFinite { arguments.append("--max-time \(CurlQuoting.number(timeouts.total))") }
        switch httpVersion {
        case .automatic: break
        case .http1_1: arguments.append("--http1.1")
        case .http2PriorKnowledge: arguments.append("--http2-prior-knowledge")
        }
        if tls.allowsInsecureConnections { arguments.append("-k") }
        arguments.append(contentsOf: proxyArguments(redaction: redaction))
        arguments.append(contentsOf: authenticationArguments(redaction: redaction))
        var shownURL = redaction.redacting(url)
        if let scheme = url.scheme?.lowercased(), scheme == "http+unix" || scheme == "https+unix", let socket = url.host {
            // The socket is the host; libcurl is given the rest as a URL of localhost.
            if unixSocketPath == nil { arguments.append("--unix-socket \(CurlQuoting.quote(socket))") }
            if let authorityEnd = shownURL.range(of: "://").flatMap({ start in
                shownURL[start.upperBound...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? shownURL.endIndex
            }) {
                shownURL = String(scheme.dropLast(5)) + "://localhost" + String(shownURL[authorityEnd...])
            }
        }
        if let unixSocketPath { arguments.append("--unix-socket \(CurlQuoting.quote(unixSocketPath))") }
        for field in headers {
            let value = redaction.redactedValue(ofHeader: field.name, value: field.value)
            arguments.append("-H \(CurlQuoting.quote("\(field.name): \(value)"))")
        }
        arguments.append(contentsOf: bodyArguments(redaction: redaction, maximumBodyBytes: maximumBodyBytes))
        if let download { arguments.append("-o \(CurlQuoting.quote(download.destination.path))") }
        arguments.append(CurlQuoting.quote(shownURL))
        return "curl " + arguments.joined(separator: multiline ? " \\\n  " : " ")
    }

    private func proxyArguments(redaction: Redaction) -> [String] {
        guard let proxyURL = proxy.curlProxyURL else { return [] }
        guard proxy.kind != .direct else { return ["--noproxy '*'"] }
        var arguments = ["-x \(CurlQuoting.quote(proxyURL))"]
        if let credentials = proxy.credentials {
            let password = redaction.hidesNothing ? credentials.password : redaction.replacement
            arguments.append("--proxy-user \(CurlQuoting.quote("\(credentials.user):\(password)"))")
            if proxy.kind != .socks5 {
                switch credentials.scheme {
                case .basic: break
                case .digest: arguments.append("--proxy-digest")
                case .ntlm: arguments.append("--proxy-ntlm")
                case .any: arguments.append("--proxy-anyauth")
                }
            }
        }
        if !proxy.bypass.isEmpty { arguments.append("--noproxy \(CurlQuoting.quote(proxy.bypass.joined(separator: ",")))") }
        if proxy.kind == .https {
            if proxy.tls.allowsInsecureConnections { arguments.append("--proxy-insecure") }
            if let caFile = proxy.tls.caFile { arguments.append("--proxy-cacert \(CurlQuoting.quote(caFile.path))") }
            if let pinned = proxy.tls.pinnedPublicKey { arguments.append("--proxy-pinnedpubkey \(CurlQuoting.quote(pinned))") }
        }
        return arguments
    }

    /// `--user` with the password hidden as the proxy's is, and the scheme's flag (Basic is
    /// curl's default and has none); Negotiate is curl's `--negotiate -u :`.
    private func authenticationArguments(redaction: Redaction) -> [String] {
        guard let authentication else { return [] }
        let password = redaction.hidesNothing ? authentication.password : redaction.replacement
        let user = "--user \(CurlQuoting.quote("\(authentication.user):\(password)"))"
        switch authentication.scheme {
        case .basic: return [user]
        case .digest: return [user, "--digest"]
        case .ntlm: return [user, "--ntlm"]
        case .negotiate: return ["--negotiate", "--user ':'"]
        case .any: return [user, "--anyauth"]
        }
    }

    private func bodyArguments(redaction: Redaction, maximumBodyBytes: Int) -> [String] {
        switch body {
        case .none:
            return []
        case .file(let fileURL):
            return ["--data-binary \(CurlQuoting.quote("@" + fileURL.path))"]
        case .data(let data):
            guard data.count <= maximumBodyBytes else {
                return ["--data-binary \(CurlQuoting.quote("<\(data.count) bytes>"))"]
            }
            guard let text = redaction.redactedBodyText(data) else {
                return ["--data-binary \(CurlQuoting.quote("<\(data.count) bytes>"))"]
            }
            return ["--data-binary \(CurlQuoting.quote(text))"]
        case .multipart(let form):
            return form.parts.map { part in multipartArgument(part, redaction: redaction, maximumBodyBytes: maximumBodyBytes) }
        case .stream(let stream):
            // curl reads a body of unknown length from standard input, chunked.
            return ["--data-binary @- \(CurlQuoting.quote("<stream of \(stream.length.map { "\($0) bytes" } ?? "unknown length")>"))"]
        }
    }

    private func multipartArgument(_ part: MultipartFormData.Part, redaction: Redaction, maximumBodyBytes: Int) -> String {
        var attributes = ""
        if let fileName = part.fileName { attributes += ";filename=\(CurlQuoting.formAttribute(fileName))" }
        if let mimeType = part.mimeType { attributes += ";type=\(mimeType)" }
        switch part.content {
        case .file(let fileURL):
            return "-F \(CurlQuoting.quote("\(part.name)=@\(CurlQuoting.formAttribute(fileURL.path))\(attributes)"))"
        case .data(let data):
            if redaction.redactsParameter(named: part.name) {
                return "--form-string \(CurlQuoting.quote("\(part.name)=\(redaction.replacement)"))"
            }
            // `--form-string` sends the text as it is; `-F` would read a leading `@` or `<` as a file.
            if part.fileName == nil, part.mimeType == nil, data.count <= maximumBodyBytes,
               let text = CurlQuoting.printableText(data) {
                return "--form-string \(CurlQuoting.quote("\(part.name)=\(text)"))"
            }
            return "--form-string \(CurlQuoting.quote("\(part.name)=<\(data.count) bytes\(part.fileName.map { " of \($0)" } ?? "")>"))"
        }
    }
}
