/// Business envelopes: `{"errcode","errmsg","data"}` and the nested ranking-list shape, where
/// failures are HTTP 200 with a non-success code, and some fields are numbers in one item and
/// strings in the next.
extension Router {
    static let envelopeRoutes: [Route] = [
        Route(["GET"], "/envelope/user/:id", envelopeUser),
        Route(["GET"], "/envelope/fail", { _ in
            .json(["errcode": 40001, "errmsg": "invalid token", "data": .null])
        }),
        Route(["GET"], "/envelope/fail-string-code", { _ in
            .json(["errcode": "40001", "errmsg": "invalid token", "data": .null])
        }),
        Route(["GET", "POST"], "/envelope/result", { _ in
            .json(["errcode": 0, "errmsg": "ok", "data": ["result": "1"]])
        }),
        Route(["GET"], "/rank/list", { _ in rank(stateCode: 1, message: "成功", items: rankingItems) }),
        Route(["GET"], "/rank/fail", { _ in rank(stateCode: 0, message: "参数错误", items: []) }),
    ]

    private static func envelopeUser(_ request: RouteContext) throws -> Response {
        guard let user = SampleUsers.user(id: request.parameter("id")) else {
            return .json(["errcode": 40004, "errmsg": "user not found", "data": .null])
        }
        return .json(["errcode": 0, "errmsg": "ok", "data": user.json])
    }

    private static func rank(stateCode: Int, message: String, items: [JSONValue]) -> Response {
        .json([
            "code": 1,
            "data": [
                "stateCode": .int(stateCode),
                "message": .string(message),
                "returnData": ["rankinglist": .array(items)],
            ],
        ])
    }

    /// `argValue` and `rankingType` alternate between numbers and numeric strings on purpose.
    private static let rankingItems: [JSONValue] = [
        ["title": "畅销榜", "subTitle": "最受欢迎的作品", "cover": "https://img.example.com/rank/1.jpg",
         "argName": "sort", "argValue": 1, "rankingType": 1],
        ["title": "新作榜", "subTitle": "新鲜出炉", "cover": "https://img.example.com/rank/2.jpg",
         "argName": "sort", "argValue": "2", "rankingType": "2"],
        ["title": "完结榜", "subTitle": "一口气看完", "cover": "https://img.example.com/rank/3.jpg",
         "argName": "sort", "argValue": 3, "rankingType": "3"],
        ["title": "月票榜", "subTitle": "读者投票", "cover": "https://img.example.com/rank/4.jpg",
         "argName": "sort", "argValue": "4", "rankingType": 4],
    ]
}
