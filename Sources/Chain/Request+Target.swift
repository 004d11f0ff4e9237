import Foundation

extension Request {
    /// A request for a Moya-style target: its URL (`path` resolved under `baseURL` by the rule
    /// of ``HTTPCore/URLResolution``), method, headers, task (parameters or body), validation
    /// and sample data (used when stubbing).
    public static func target(_ target: some TargetType) -> Request {
        made(from: target)
    }

    private static func made(from target: some TargetType) -> Request {
        var request = Request(location: .target(path: target.path, baseURL: target.baseURL)).method(target.method).validate(target.validationType.statusValidation)
        if let headers = target.headers { request = request.headers(HTTPHeaders(headers)) }
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

    /// A request for a `Sendable` target (an `enum` of an app's endpoints usually is): as
    /// ``target(_:)-(TargetType)``, and the configuration's ``ChainConfiguration/stubClosure``
    /// decides per target whether it is stubbed, as Moya's `stubClosure` does.
    public static func target(_ target: some TargetType & Sendable) -> Request {
        var request = made(from: target)
        request.stubTarget = target
        return request
    }
}
