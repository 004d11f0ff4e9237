import Foundation
@testable import HTTPCore
@testable import HTTPFeatures

/// A model with a lenient field of every kind.
struct LenientModel: Decodable, Sendable {
    @Lenient var int: Int
    @Lenient var small: UInt8
    @Lenient var double: Double
    @Lenient var float: Float
    @Lenient var flag: Bool
    @Lenient var text: String
    @LenientOptional var optional: Int64?
    @LenientOptional var unsigned: UInt64?
}

struct FuzzErrorBody: Decodable, Error {
    let error: String
    @Lenient var error_code: Int
}

let envelopes: [Envelope] = [
    .errcode,
    .codeMessageData,
    Envelope(codePath: "data.stateCode", messagePath: "data.message", payloadPath: "data.returnData.rankinglist",
             successCodes: [1]),
    Envelope(codePath: "a..b.", messagePath: "", payloadPath: ".", successCodes: [" 0.0 ", "ok", "true"]),
]

let charsets = ["utf-8", "iso-8859-1", "utf-16", "utf-32be", "shift_jis", "windows-1252", "x-unknown", ""]

/// libFuzzer entry: the first byte picks the status and charset, the rest is the body. Every
/// decoding path both front ends use runs on it, with FastJSON and with Foundation; the two
/// must agree on the envelope code (the documented contract of `JSONDecoding`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecoding(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0, let url = URL(string: "http://fuzz.invalid/") else { return 0 }
    let selector = Int(data[0])
    let body = Data(bytes: data + 1, count: size - 1)
    let status = [200, 200, 201, 400, 404, 500, 302, 204][selector & 7]
    let charset = charsets[(selector >> 3) & 7]
    let response = HTTPResponse(statusCode: status,
                                headers: ["Content-Type": charset.isEmpty ? "application/json" : "application/json; charset=\(charset)"],
                                body: body, url: url)

    for envelope in envelopes {
        let fast = try? envelope.header(of: response, decoding: .fast())
        let foundation = try? envelope.header(of: response, decoding: .foundation())
        if ProcessInfo.processInfo.environment["FUZZ_DIFFERENTIAL"] != "0" {
            precondition(fast?.code == foundation?.code && fast?.message == foundation?.message,
                         "FastJSON and Foundation disagree on the envelope header: \(String(describing: fast)) vs \(String(describing: foundation))")
        }
        for decoding in [JSONDecoding.fast(), .foundation()] {
            _ = try? envelope.check(response, decoding: decoding)
            _ = try? envelope.decodePayload(LenientModel.self, from: response, decoding: decoding)
            _ = try? envelope.decodePayload([LenientModel].self, from: response, decoding: decoding)
            _ = try? envelope.decodePayload(String?.self, from: response, decoding: decoding)
            _ = try? envelope.payloadJSON(from: response, decoding: decoding)
            let validation = ResponseValidation(envelope: envelope, errorBody: ErrorBodyDecoder(FuzzErrorBody.self, decoding: decoding),
                                                decoding: decoding)
            if (try? validation.validate(response)) == nil { _ = validation.statusError(for: response).description }
        }
    }
    _ = try? ResponseSerializer<Any>.json.serialize(response, nil)
    _ = try? ResponseSerializer<String>.string().serialize(response, nil)
    _ = try? ResponseSerializer<[String: LenientModel]>.decodable().serialize(response, nil)
    _ = try? response.text(defaultEncoding: .isoLatin1)
    _ = StatusAcceptance.excerpt(of: body)
    _ = EnvelopeCode.canonical(String(decoding: body, as: UTF8.self))
    return 0
}
