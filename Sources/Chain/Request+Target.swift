import Foundation

extension Request {
    /// A request for a Moya-style target: its URL (`path` resolved under `baseURL` by the rule
    /// of ``HTTPCore/URLResolution``), method, headers, task (parameters or body), validation
    /// and sample data (used when stubbing).
    public static func target(_ target: some TargetType) -> Request {
        var request = Request(location: .target(path: target.path, baseURL: target.baseURL)).method(target.method).validate(target.validationType.statusValidation)
        if let headers = target.headers { request = request.headers(HTTPHeaders(headers)) }
        request.stubTarget = StubTarget(target: target)
        request.tags.formUnion(target.tags)
        request.sample = Sample(data: target.sampleData, statusCode: target.sampleStatusCode,
                                headers: ["Content-Type": "application/json"])
        switch target.task {
        case .requestPlain:
            break
        case .requestData(let data):
            request = request.body(data)
        case .requestJSONEncodable(let value):
            request = request.params(encodable: value).encoding(.json)
        case .requestCustomJSONEncodable(let value, let encoder):
            request = request.params(encodable: value, encoder: encoder).encoding(.json)
        case .requestParameters(let parameters, let encoding):
            request = request.params(parameters).encoding(encoding)
        case .requestCompositeData(let bodyData, let urlParameters):
            request = request.body(bodyData).query(urlParameters)
        case .requestCompositeParameters(let bodyParameters, let bodyEncoding, let urlParameters):
            request = request.params(bodyParameters).encoding(bodyEncoding).query(urlParameters)
        case .uploadMultipart(let form):
            request = request.multipart(form)
        case .uploadFile(let fileURL):
            request = request.body(fileURL: fileURL)
        }
        return request
    }
}

extension HTTPRequest {
    /// The `TargetType` this request was made from with ``Request/target(_:)``, as `type`, or
    /// `nil` (another type, or not made from a target) — what a Moya plugin gets as its
    /// `target`, for hooks and interceptors that tell endpoints apart:
    ///
    /// ```swift
    /// func willSend(_ context: HookContext) {
    ///     guard context.request.target(as: UserAPI.self) != .ping else { return }
    ///     …
    /// }
    /// ```
    public func target<Target: TargetType>(as type: Target.Type) -> Target? {
        (attachment as? StubTarget)?.target as? Target
    }
}

/// A request's target, kept for the configuration's ``ChainConfiguration/stubClosure`` and
/// for hooks (``HTTPCore/HTTPRequest/target(as:)``).
// @unchecked: `TargetType` is not `Sendable` (Moya's is not), so that existing targets port
// unchanged; the target is only read — by the stub closure when the request starts, and by
// hooks and interceptors — the same use Moya's provider and plugins make of it. Targets are
// values (enums) in that model, never changed after they are made.
struct StubTarget: @unchecked Sendable {
    let target: any TargetType
}
