import Foundation

extension Request {
    /// A request for a Moya-style target: its URL (`path` resolved under `baseURL` by the rule
    /// of ``HTTPCore/URLResolution``), method, headers, task (parameters or body), validation
    /// and sample data (used when stubbing).
    public static func target(_ target: some TargetType) -> Request {
        var request = Request(location: .target(path: target.path, baseURL: target.baseURL)).method(target.method).validate(target.validationType.statusValidation)
        if let headers = target.headers { request = request.headers(HTTPHeaders(headers)) }
        request.stubTarget = StubTarget(target: target)
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

/// A request's target, kept for the configuration's ``ChainConfiguration/stubClosure``.
// @unchecked: `TargetType` is not `Sendable` (Moya's is not), so that existing targets port
// unchanged; the target is only read, by the stub closure, once, when the request starts —
// the same use Moya's provider makes of it. Targets are values (enums) in that model.
struct StubTarget: @unchecked Sendable {
    let target: any TargetType
}
