/// Cookies like httpbin's: set, delete and echo, for the cookie jar's tests.
extension Router {
    static let cookieRoutes: [Route] = [
        Route(["GET"], "/cookies", cookies),
        Route(["GET"], "/cookies/set", setCookies),
        Route(["GET"], "/cookies/delete", deleteCookies),
        Route(["GET"], "/cookies/set-header", setCookieHeaders),
    ]

    /// `/cookies`: 200 `{"cookies":{name:value,…}}` from the request's Cookie fields (the
    /// first of a repeated name wins, in the order sent).
    private static func cookies(_ request: RouteContext) throws -> Response {
        var members: [(String, JSONValue)] = []
        for field in request.head.headers.values("Cookie") {
            for pair in field.split(separator: ";") {
                let text = pair.trimmingOWS()
                guard !text.isEmpty else { continue }
                let name: String, value: String
                if let equals = text.firstIndex(of: "=") {
                    name = text[..<equals].trimmingOWS()
                    value = text[text.index(after: equals)...].trimmingOWS()
                } else {
                    name = ""
                    value = text
                }
                if !members.contains(where: { $0.0 == name }) { members.append((name, .string(value))) }
            }
        }
        return .json(["cookies": .object(members)])
    }

    /// `/cookies/set?name=value&…`: one `Set-Cookie: name=value; Path=/` per item, then 302
    /// to `/cookies`. A name that is not a token, or a value with characters a cookie cannot
    /// hold (RFC 6265 §4.1.1), is 400.
    private static func setCookies(_ request: RouteContext) throws -> Response {
        var headers: [(String, String)] = []
        for (name, value) in request.query.items {
            guard isCookieName(name), value.unicodeScalars.allSatisfy(isCookieOctet) else {
                return .error("cookie names must be tokens and values cookie-octets", code: "400", status: 400)
            }
            headers.append(("Set-Cookie", "\(name)=\(value); Path=/"))
        }
        return redirectToCookies(headers)
    }

    /// `/cookies/delete?name&…`: an expired `Set-Cookie` per name, then 302 to `/cookies`.
    private static func deleteCookies(_ request: RouteContext) throws -> Response {
        var headers: [(String, String)] = []
        for (name, _) in request.query.items {
            guard isCookieName(name) else { return .error("cookie names must be tokens", code: "400", status: 400) }
            headers.append(("Set-Cookie", "\(name)=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Path=/"))
        }
        return redirectToCookies(headers)
    }

    /// `/cookies/set-header?h=<Set-Cookie value>&h=…`: each `h` sent as its own Set-Cookie
    /// field exactly as given (for odd attributes), then 200 `{}`. A value with a control
    /// character (which would split or corrupt the header) is 400.
    private static func setCookieHeaders(_ request: RouteContext) throws -> Response {
        var headers: [(String, String)] = []
        for (name, value) in request.query.items where name == "h" {
            guard value.unicodeScalars.allSatisfy({ $0 == "\t" || ($0.value >= 0x20 && $0.value != 0x7f) }) else {
                return .error("a Set-Cookie value must not contain control characters", code: "400", status: 400)
            }
            headers.append(("Set-Cookie", value))
        }
        return .json([:], headers: headers)
    }

    private static func redirectToCookies(_ headers: [(String, String)]) -> Response {
        .json(["redirect": "/cookies"], status: 302, headers: headers + [("Location", "/cookies")])
    }

    /// An RFC 9110 token.
    private static func isCookieName(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && scalar.value > 0x20 && scalar.value < 0x7f && !"()<>@,;:\\\"/[]?={}".unicodeScalars.contains(scalar)
        }
    }

    /// RFC 6265's cookie-octet: visible ASCII except `"`, `,`, `;` and `\`.
    private static func isCookieOctet(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && scalar.value > 0x20 && scalar.value < 0x7f && !"\",;\\".unicodeScalars.contains(scalar)
    }
}
