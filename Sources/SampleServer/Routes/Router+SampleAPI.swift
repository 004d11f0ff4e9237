/// The login and user-lookup API of the source documents, with its `{"error","error_code"}` error body.
extension Router {
    static let sampleAPIRoutes: [Route] = [
        Route(["POST"], "/account/login", login),
        Route(["GET"], "/user/query", queryUsers),
        Route(["GET"], "/user/:id", user),
    ]

    /// Credentials from a form or JSON body: 200 with the user, 401 on a bad password,
    /// 400 when a field is missing or the body is unreadable.
    private static func login(_ request: RouteContext) throws -> Response {
        let body = try request.body.readAll(limit: 1 << 20)
        var username: String?
        var password: String?
        let looksLikeJSON = request.mediaType.contains("json")
            || (request.mediaType.isEmpty && body.first == UInt8(ascii: "{"))
        if looksLikeJSON {
            guard let json = JSONParser.parse(body), case .object = json else {
                return .error("malformed request body", code: "1003", status: 400)
            }
            username = json["username"]?.stringValue
            password = json["password"]?.stringValue
        } else {
            let form = QueryItems(String(decoding: body, as: UTF8.self))
            username = form["username"]
            password = form["password"]
        }
        guard let username, !username.isEmpty, let password else {
            return .error("username and password are required", code: "1002", status: 400)
        }
        guard let user = SampleUsers.user(name: username), user.password == password else {
            return .error("invalid username or password", code: "1001", status: 401)
        }
        return .json(user.json)
    }

    /// Users whose name contains `q` (case-insensitive); all users without `q`.
    private static func queryUsers(_ request: RouteContext) throws -> Response {
        let needle = (request.query["q"] ?? "").lowercased()
        let matches = SampleUsers.all.filter { needle.isEmpty || $0.name.lowercased().contains(needle) }
        return .json(.array(matches.map(\.json)))
    }

    private static func user(_ request: RouteContext) throws -> Response {
        guard let user = SampleUsers.user(id: request.parameter("id")) else {
            return .error("user not found", code: "1004", status: 404)
        }
        return .json(user.json)
    }
}
