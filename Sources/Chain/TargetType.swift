import Foundation

/// One endpoint of an API, described as a value — Moya's `TargetType`, so enum-based API
/// definitions port almost unchanged:
///
/// ```swift
/// enum UserAPI: TargetType {
///     case login(username: String, password: String)
///     case user(id: String)
///
///     var baseURL: URL { API.baseURL }     // a constant of your app
///     var path: String {
///         switch self {
///         case .login: "account/login"
///         case .user(let id): "user/\(id)"
///         }
///     }
///     var method: HTTPMethod { self == .login ? .post : .get }
///     var task: TargetTask {
///         switch self {
///         case .login(let username, let password):
///             .requestParameters(parameters: ["username": username, "password": password], encoding: .form)
///         case .user: .requestPlain
///         }
///     }
///     var sampleData: Data { Data(#"{"id":"101","name":"wiki","age":18}"#.utf8) }
/// }
///
/// Request.target(UserAPI.user(id: "101")).response(User.self) { result in … }
/// ```
///
/// Porting from Moya: `Task` is ``TargetTask`` (Swift's `Task` owns the name);
/// `URLEncoding.default` is `ParameterEncoding.default(for: method)` (or `.query`/`.form`),
/// `URLEncoding.queryString` is `.query`, `JSONEncoding.default` is `.json`; a `path` with a
/// leading `/` starts at the host root (Moya appends it to the base's path), so write
/// `user/1` under a base URL with a path of its own; `validationType`
/// defaults to ``ValidationType/successCodes`` here (Moya's default is `.none`), so a 404
/// fails instead of decoding an error body as a model.
public protocol TargetType {
    /// The base URL, e.g. `https://api.example.com/v1`.
    var baseURL: URL { get }
    /// The path under ``baseURL`` (empty for the base URL itself), resolved as every front end
    /// resolves one (``HTTPCore/URLResolution``): `user/1` extends the base's path, while
    /// `/user/1` starts at the base's host root.
    var path: String { get }
    /// The method. Default `GET`.
    var method: HTTPMethod { get }
    /// The parameters or body. Default ``TargetTask/requestPlain``.
    var task: TargetTask { get }
    /// Extra headers. Default `nil`.
    var headers: [String: String]? { get }
    /// The body a stubbed request answers with. Default empty.
    var sampleData: Data { get }
    /// The status a stubbed request answers with. Default 200.
    var sampleStatusCode: Int { get }
    /// Which statuses are accepted. Default ``ValidationType/successCodes``.
    var validationType: ValidationType { get }
    /// Tags for hooks and interceptors (``HTTPCore/HTTPRequest/tags``), e.g. `["silent"]` for
    /// calls a progress display skips; added to those given with ``Request/tag(_:)``.
    /// Default: none. Hooks also get the target itself with
    /// ``HTTPCore/HTTPRequest/target(as:)``.
    var tags: Set<String> { get }
}

extension TargetType {
    /// `GET`.
    public var method: HTTPMethod { .get }
    /// ``TargetTask/requestPlain``.
    public var task: TargetTask { .requestPlain }
    /// `nil`.
    public var headers: [String: String]? { nil }
    /// Empty data.
    public var sampleData: Data { Data() }
    /// `200`.
    public var sampleStatusCode: Int { 200 }
    /// ``ValidationType/successCodes``.
    public var validationType: ValidationType { .successCodes }
    /// None.
    public var tags: Set<String> { [] }
}
