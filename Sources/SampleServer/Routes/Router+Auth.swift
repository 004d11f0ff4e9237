import Digest
import Foundation

/// HTTP authentication challenges like httpbin's (Basic, Digest) plus NTLM and Negotiate,
/// for the client's authentication tests. Every route answers 200
/// `{"authenticated":true,"user":…}` to good credentials and 401 with a challenge otherwise,
/// whatever the method (Digest hashes the method in), so POSTs through a handshake can be tested.
extension Router {
    static let authRoutes: [Route] = [
        Route(nil, "/basic-auth/:user/:passwd", basicAuth),
        Route(nil, "/digest-auth/:qop/:user/:passwd", digestAuth),
        Route(nil, "/digest-auth/:qop/:user/:passwd/:algorithm", digestAuth),
        Route(nil, "/ntlm/:user/:passwd", ntlm),
        Route(nil, "/negotiate", negotiate),
    ]

    /// The realm of the Basic and Digest challenges (httpbin's).
    static let authRealm = "Fake Realm"
    /// How many Digest nonces stay valid; older ones are forgotten.
    private static let digestNonceLimit = 1024

    /// `/basic-auth/{user}/{passwd}`: `Authorization: Basic base64(user:passwd)` or 401.
    private static func basicAuth(_ request: RouteContext) throws -> Response {
        let user = request.parameter("user"), password = request.parameter("passwd")
        if let field = request.head.headers["Authorization"], let (scheme, credentials) = schemeAndToken(field),
           scheme == "basic", let decoded = Data(base64Encoded: credentials),
           String(decoding: decoded, as: UTF8.self) == "\(user):\(password)" {
            return authenticated(user)
        }
        return refused(challenges: ["Basic realm=\"\(authRealm)\""])
    }

    /// `/digest-auth/{qop}/{user}/{passwd}[/{algorithm}]` (RFC 7616): qop `auth`, algorithm
    /// `MD5` (default) or `SHA-256`. Each challenge has a fresh nonce; a response is checked
    /// against one of the recent nonces, the user, the realm, the request target and the
    /// password. `?also-basic=true` offers Basic as well, which the route then refuses, to
    /// see which scheme a client picks.
    private static func digestAuth(_ request: RouteContext) throws -> Response {
        guard request.parameter("qop") == "auth" else {
            return .error("qop must be auth", code: "400", status: 400)
        }
        let algorithm = request.parameters["algorithm"].map { $0.uppercased() } ?? "MD5"
        guard algorithm == "MD5" || algorithm == "SHA-256" else {
            return .error("algorithm must be MD5 or SHA-256", code: "400", status: 400)
        }
        let user = request.parameter("user"), password = request.parameter("passwd")
        let hash: (String) -> String = { algorithm == "MD5" ? MD5.hexDigest($0) : SHA256.hexDigest($0) }
        if let field = request.head.headers["Authorization"], let (scheme, values) = AuthParameters.parse(field),
           scheme == "digest", let nonce = values["nonce"], let nc = values["nc"], let cnonce = values["cnonce"],
           let response = values["response"], values["username"] == user, values["realm"] == authRealm,
           values["uri"] == request.head.target, values["qop"] == "auth",
           (values["algorithm"] ?? "MD5").uppercased() == algorithm,
           request.server.state.withLock({ $0.digestNonces.contains(nonce) }) {
            let ha1 = hash("\(user):\(authRealm):\(password)")
            let ha2 = hash("\(request.method):\(request.head.target)")
            if response.lowercased() == hash("\(ha1):\(nonce):\(nc):\(cnonce):auth:\(ha2)") {
                return authenticated(user)
            }
        }
        let nonce = randomHex(byteCount: 16)
        request.server.state.withLock { state in
            state.digestNonces.append(nonce)
            if state.digestNonces.count > digestNonceLimit { state.digestNonces.removeFirst() }
        }
        let digest = "Digest realm=\"\(authRealm)\", qop=\"auth\", nonce=\"\(nonce)\", opaque=\"\(randomHex(byteCount: 8))\", algorithm=\(algorithm)"
        let alsoBasic = request.query["also-basic"] == "true"
        return refused(challenges: (alsoBasic ? ["Basic realm=\"\(authRealm)\""] : []) + [digest])
    }

    /// `/ntlm/{user}/{passwd}`: the NTLM handshake on one connection. No credentials: 401
    /// `NTLM`; a type-1 message: 401 with a type-2 challenge remembered for this connection;
    /// a type-3 message: 200 if its NTLMv2 response matches the password, else 401. A
    /// connection that finished the handshake stays authenticated for that user, as with IIS.
    private static func ntlm(_ request: RouteContext) throws -> Response {
        let user = request.parameter("user"), password = request.parameter("passwd")
        let memory = request.connection
        guard let field = request.head.headers["Authorization"] else {
            return memory.ntlmUser == user.lowercased() ? authenticated(user) : refused(challenges: ["NTLM"])
        }
        guard let (scheme, token) = schemeAndToken(field), scheme == "ntlm", let bytes = Data(base64Encoded: token),
              let message = NTLMHandshake.decode(Array(bytes)) else {
            memory.ntlmChallenge = nil
            return refused(challenges: ["NTLM"])
        }
        switch message {
        case .negotiate:
            let challenge = (0..<8).map { _ in UInt8.random(in: 0...255) }
            memory.ntlmChallenge = challenge
            memory.ntlmUser = nil
            let encoded = Data(NTLMHandshake.challengeMessage(challenge)).base64EncodedString()
            return refused(challenges: ["NTLM \(encoded)"])
        case .authenticate(let authenticate):
            defer { memory.ntlmChallenge = nil }
            guard let challenge = memory.ntlmChallenge,
                  NTLMHandshake.verify(authenticate, user: user, password: password, challenge: challenge) else {
                return refused(challenges: ["NTLM"])
            }
            memory.ntlmUser = user.lowercased()
            return authenticated(user)
        }
    }

    /// `/negotiate`: 401 `WWW-Authenticate: Negotiate`, always. The server has no Kerberos
    /// keytab, so no SPNEGO token can be checked; the body says whether one was sent.
    private static func negotiate(_ request: RouteContext) throws -> Response {
        let token = request.head.headers["Authorization"].flatMap(schemeAndToken)
        return refused(challenges: ["Negotiate"], extra: [("token_received", .bool(token?.scheme == "negotiate"))])
    }

    /// `Scheme token` → (lower-cased scheme, token); nil without a token.
    private static func schemeAndToken(_ field: String) -> (scheme: String, token: String)? {
        let parts = field.trimmingOWS().split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2 else { return nil }
        return (parts[0].lowercased(), parts[1].trimmingOWS())
    }

    private static func authenticated(_ user: String) -> Response {
        .json(["authenticated": true, "user": .string(user)])
    }

    /// 401 with one `WWW-Authenticate` field per challenge.
    private static func refused(challenges: [String], extra: [(String, JSONValue)] = []) -> Response {
        .json(.object([("error", "authentication required"), ("error_code", "401")] + extra), status: 401,
              headers: challenges.map { ("WWW-Authenticate", $0) })
    }

    private static func randomHex(byteCount: Int) -> String {
        SHA256.hexString((0..<byteCount).map { _ in UInt8.random(in: 0...255) })
    }
}
