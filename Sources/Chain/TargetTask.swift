import Foundation

/// What a ``TargetType`` sends besides its URL — Moya's `Task`.
///
/// Not `Sendable` (`[String: Any]` cannot be): ``Request/target(_:)`` converts it at once
/// into the request's own Sendable form, reporting unsupported values through the completion.
public enum TargetTask {
    /// No parameters, no body.
    case requestPlain
    /// This body, sent as it is.
    case requestData(Data)
    /// An `Encodable` value as a JSON body (with the configuration's encoder).
    case requestJSONEncodable(any Encodable & Sendable)
    /// An `Encodable` value as a JSON body, with this encoder.
    case requestCustomJSONEncodable(any Encodable & Sendable, encoder: JSONEncoder)
    /// Parameters, encoded in the URL query, a form body or a JSON body.
    case requestParameters(parameters: [String: Any], encoding: ParameterEncoding)
    /// A body plus parameters in the URL query.
    case requestCompositeData(bodyData: Data, urlParameters: [String: Any])
    /// Body parameters plus parameters in the URL query.
    case requestCompositeParameters(bodyParameters: [String: Any], bodyEncoding: ParameterEncoding,
                                    urlParameters: [String: Any])
    /// A `multipart/form-data` body; file parts stream from disk.
    case uploadMultipart(MultipartFormData)
    /// A file streamed from disk as the body.
    case uploadFile(URL)
}
