/// Validators and freshness headers for the HTTP-cache tests.
extension Router {
    /// The fixed Last-Modified of `/cache`: Wed, 21 Oct 2015 07:28:00 GMT.
    static let cacheLastModified = HTTPDate.format(secondsSince1970: 1_445_412_480)
    static let cacheETag = "\"cache-v1\""

    static let cachingRoutes: [Route] = [
        Route(["GET"], "/etag/:etag", etag),
        Route(["GET"], "/cache", cache),
        Route(["GET"], "/cache/:seconds", cacheFor),
    ]

    /// `/etag/{etag}`: 304 when If-None-Match lists `"{etag}"` (weak or strong) or `*`, else
    /// 200; both with the ETag and `Cache-Control: max-age=60`.
    private static func etag(_ request: RouteContext) throws -> Response {
        let tag = request.parameter("etag")
        guard tag.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7f && $0 != "\"" }) else {
            return .error("etag must be printable ASCII without quotes", code: "400", status: 400)
        }
        let headers = [("ETag", "\"\(tag)\""), ("Cache-Control", "max-age=60")]
        if let condition = request.head.headers["If-None-Match"], matches(condition, tag: tag) {
            return Response(status: 304, headers: headers)
        }
        return .json(["etag": .string(tag)], headers: headers)
    }

    /// Weak comparison of an If-None-Match list against one opaque tag.
    private static func matches(_ condition: String, tag: String) -> Bool {
        condition.split(separator: ",").contains { element in
            var candidate = element.trimmingOWS()
            if candidate == "*" { return true }
            if candidate.hasPrefix("W/") { candidate.removeFirst(2) }
            return candidate == "\"\(tag)\""
        }
    }

    /// `/cache`: 304 when the request is conditional at all (If-Modified-Since or
    /// If-None-Match), else 200 with an echo body; Last-Modified, ETag, `max-age=60` on both.
    private static func cache(_ request: RouteContext) throws -> Response {
        let headers = [("Last-Modified", cacheLastModified), ("ETag", cacheETag), ("Cache-Control", "max-age=60")]
        if request.head.headers["If-Modified-Since"] != nil || request.head.headers["If-None-Match"] != nil {
            return Response(status: 304, headers: headers)
        }
        return try echo(request, headers: headers)
    }

    /// `/cache/{seconds}`: an echo body with `Cache-Control: public, max-age={seconds}`.
    private static func cacheFor(_ request: RouteContext) throws -> Response {
        guard let seconds = Int(request.parameter("seconds")), seconds >= 0 else {
            return .error("seconds must be a non-negative integer", code: "400", status: 400)
        }
        return try echo(request, headers: [("Cache-Control", "public, max-age=\(seconds)")])
    }
}
