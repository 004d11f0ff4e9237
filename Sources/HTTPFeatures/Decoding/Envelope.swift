import Foundation
import HTTPCore

/// Describes a business envelope around the payload of a JSON response, such as
/// `{"errcode":0,"errmsg":"ok","data":{…}}` or
/// `{"code":1,"data":{"stateCode":1,"message":"成功","returnData":{…}}}`.
///
/// Servers of this style answer HTTP 200 for failures too and put the real outcome in a code
/// field. An envelope names where that code, its message and the payload sit (dotted key
/// paths, e.g. `data.returnData.rankinglist`) and which codes mean success. Checking the code
/// is part of validation, so a business failure is never cached; unwrapping the payload is
/// part of decoding.
///
/// The code may arrive as a number (`0`, `0.0`) or a string (`"0"`); both are compared in
/// their canonical string form (`"0"`). Booleans compare as `"true"`/`"false"`.
///
/// ```swift
/// let wechat = Envelope(codePath: "errcode", messagePath: "errmsg", payloadPath: "data", successCodes: [0])
/// let ranking = Envelope(codePath: "data.stateCode", messagePath: "data.message",
///                        payloadPath: "data.returnData.rankinglist", successCodes: [1])
/// ```
///
/// Key paths name object keys only (no array indices), and are matched after the decoder's
/// `keyDecodingStrategy` has converted the keys (with `.convertFromSnakeCase`, write
/// `returnData`, not `return_data`).
public struct Envelope: Sendable, Hashable {
    /// One business code to check: where it sits, where its message sits, and which values
    /// mean success. An envelope checks each of its ``checks`` in order.
    public struct CodeCheck: Sendable, Hashable {
        /// The dotted key path of the code, e.g. `"errcode"` or `"data.stateCode"`.
        public var codePath: String
        /// The dotted key path of the message that goes with this code, or `nil` when there is
        /// none. A missing or non-string message is reported as an empty string.
        public var messagePath: String?
        /// The codes that mean success, in canonical string form (`"0"`, not `"0.0"`).
        public var successCodes: Set<String>

        /// Makes a check whose success codes are strings (canonicalised: `"0.0"` becomes `"0"`).
        ///
        /// - Parameters:
        ///   - codePath: the dotted key path of the code.
        ///   - messagePath: the dotted key path of its message. Default `nil` (no message).
        ///   - successCodes: the codes that mean success.
        public init(codePath: String, messagePath: String? = nil, successCodes: Set<String>) {
            self.codePath = codePath
            self.messagePath = messagePath
            self.successCodes = Set(successCodes.map(EnvelopeCode.canonical))
        }

        /// Makes a check whose success codes are integers.
        ///
        /// - Parameters:
        ///   - codePath: the dotted key path of the code.
        ///   - messagePath: the dotted key path of its message. Default `nil` (no message).
        ///   - successCodes: the codes that mean success.
        public init(codePath: String, messagePath: String? = nil, successCodes: Set<Int>) {
            self.init(codePath: codePath, messagePath: messagePath, successCodes: Set(successCodes.map(String.init)))
        }
    }

    /// The code checks, in the order they run; all must pass. Empty for a plain key path
    /// (``keyPath(_:)``), which checks nothing and only unwraps the payload.
    public var checks: [CodeCheck]
    /// The dotted key path of the payload, or `nil` when the payload is the whole body.
    public var payloadPath: String?

    /// The first check's code path (`""` when there is no check); setting it changes the
    /// first check, or adds one that accepts no code yet.
    public var codePath: String {
        get { checks.first?.codePath ?? "" }
        set { changeFirstCheck { $0.codePath = newValue } }
    }

    /// The first check's message path (`nil` when there is no check); setting it changes the
    /// first check, or adds one.
    public var messagePath: String? {
        get { checks.first?.messagePath }
        set { changeFirstCheck { $0.messagePath = newValue } }
    }

    /// The first check's success codes (empty when there is no check); setting it changes the
    /// first check, or adds one.
    public var successCodes: Set<String> {
        get { checks.first?.successCodes ?? [] }
        set { changeFirstCheck { $0.successCodes = Set(newValue.map(EnvelopeCode.canonical)) } }
    }

    /// Makes an envelope with one code check whose success codes are strings (canonicalised:
    /// `"0.0"` becomes `"0"`).
    ///
    /// - Parameters:
    ///   - codePath: the dotted key path of the business code.
    ///   - messagePath: the dotted key path of the message. Default `nil` (no message).
    ///   - payloadPath: the dotted key path of the payload. Default `nil` (the whole body).
    ///   - successCodes: the codes that mean success.
    public init(codePath: String, messagePath: String? = nil, payloadPath: String? = nil, successCodes: Set<String>) {
        self.init(checks: [CodeCheck(codePath: codePath, messagePath: messagePath, successCodes: successCodes)],
                  payloadPath: payloadPath)
    }

    /// Makes an envelope with one code check whose success codes are integers.
    ///
    /// - Parameters:
    ///   - codePath: the dotted key path of the business code.
    ///   - messagePath: the dotted key path of the message. Default `nil` (no message).
    ///   - payloadPath: the dotted key path of the payload. Default `nil` (the whole body).
    ///   - successCodes: the codes that mean success.
    public init(codePath: String, messagePath: String? = nil, payloadPath: String? = nil, successCodes: Set<Int>) {
        self.init(codePath: codePath, messagePath: messagePath, payloadPath: payloadPath,
                  successCodes: Set(successCodes.map(String.init)))
    }

    /// Makes an envelope from its checks, which run in order (all must pass), and its payload.
    ///
    /// - Parameters:
    ///   - checks: the code checks; empty for a plain key path.
    ///   - payloadPath: the dotted key path of the payload. Default `nil` (the whole body).
    public init(checks: [CodeCheck], payloadPath: String? = nil) {
        self.checks = checks
        self.payloadPath = payloadPath
    }

    /// A payload at a dotted key path with no code check — Moya's `map(_:atKeyPath:)`:
    /// `Envelope.keyPath("data.list")`. A missing payload decodes only into an optional.
    public static func keyPath(_ path: String) -> Envelope {
        Envelope(checks: [], payloadPath: path)
    }

    /// `{"errcode":0,"errmsg":"…","data":…}`: code `errcode`, message `errmsg`, payload `data`,
    /// success code `0` — the WeChat-style envelope.
    public static let errcode = Envelope(codePath: "errcode", messagePath: "errmsg", payloadPath: "data",
                                         successCodes: [0])

    /// `{"code":0,"message":"…","data":…}`: code `code`, message `message`, payload `data`,
    /// success code `0`.
    public static let codeMessageData = Envelope(codePath: "code", messagePath: "message", payloadPath: "data",
                                                 successCodes: [0])

    /// This envelope with another payload path (`nil` for the whole body), for endpoints that
    /// share the code and message but nest their payload differently.
    public func payload(at path: String?) -> Envelope {
        var copy = self
        copy.payloadPath = path
        return copy
    }

    /// This envelope with one more code check after its others, for bodies with two codes,
    /// such as u17's `{"code":1,"data":{"stateCode":1,"message":"成功",…}}`:
    ///
    /// ```swift
    /// Envelope(codePath: "code", payloadPath: "data.returnData", successCodes: [1])
    ///     .checking("data.stateCode", messagePath: "data.message", successCodes: [1])
    /// ```
    ///
    /// - Parameters:
    ///   - codePath: the dotted key path of the code.
    ///   - messagePath: the dotted key path of its message. Default `nil` (no message).
    ///   - successCodes: the codes that mean success.
    public func checking(_ codePath: String, messagePath: String? = nil, successCodes: Set<Int>) -> Envelope {
        checking(CodeCheck(codePath: codePath, messagePath: messagePath, successCodes: successCodes))
    }

    /// ``checking(_:messagePath:successCodes:)`` with success codes that are strings.
    ///
    /// - Parameters:
    ///   - codePath: the dotted key path of the code.
    ///   - messagePath: the dotted key path of its message. Default `nil` (no message).
    ///   - successCodes: the codes that mean success (canonicalised).
    public func checking(_ codePath: String, messagePath: String? = nil, successCodes: Set<String>) -> Envelope {
        checking(CodeCheck(codePath: codePath, messagePath: messagePath, successCodes: successCodes))
    }

    /// This envelope with `check` run after its others.
    public func checking(_ check: CodeCheck) -> Envelope {
        var copy = self
        copy.checks.append(check)
        return copy
    }

    private mutating func changeFirstCheck(_ change: (inout CodeCheck) -> Void) {
        if checks.isEmpty { checks.append(CodeCheck(codePath: "", successCodes: Set<String>())) }
        change(&checks[0])
    }
}
