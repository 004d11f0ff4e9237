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
    /// The dotted key path of the business code, e.g. `"errcode"` or `"data.stateCode"`.
    public var codePath: String
    /// The dotted key path of the server's message, or `nil` when there is none.
    /// A missing or non-string message is reported as an empty string.
    public var messagePath: String?
    /// The dotted key path of the payload, or `nil` when the payload is the whole body.
    public var payloadPath: String?
    /// The codes that mean success, in canonical string form (`"0"`, not `"0.0"`).
    public var successCodes: Set<String>

    /// Makes an envelope whose success codes are strings (canonicalised: `"0.0"` becomes `"0"`).
    ///
    /// - Parameters:
    ///   - codePath: the dotted key path of the business code.
    ///   - messagePath: the dotted key path of the message. Default `nil` (no message).
    ///   - payloadPath: the dotted key path of the payload. Default `nil` (the whole body).
    ///   - successCodes: the codes that mean success.
    public init(codePath: String, messagePath: String? = nil, payloadPath: String? = nil, successCodes: Set<String>) {
        self.codePath = codePath
        self.messagePath = messagePath
        self.payloadPath = payloadPath
        self.successCodes = Set(successCodes.map(EnvelopeCode.canonical))
    }

    /// Makes an envelope whose success codes are integers.
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
}
