import Foundation
import HTTPCore
import HTTPFeatures

/// Making records from the pipeline's values, and responses from records.
extension CassetteInteraction.RecordedRequest {
    /// `request` as the file keeps it: headers and URL query redacted, and `body`, its body
    /// as ``redactedBytes(of:redaction:)`` made it (empty when that could not know it).
    init(_ request: HTTPRequest, body: Data, redaction: Redaction) {
        self.init(method: request.method.rawValue, url: redaction.redacting(request.url),
                  headers: redaction.redacting(request.headers).fields.map(CassetteInteraction.Header.init),
                  body: body)
    }

    /// The boundary of a recorded multipart body. libcurl chooses a random one on the wire;
    /// a fixed one keeps the record of the same form the same.
    static let multipartBoundary = "chain-cassette-boundary"

    /// The body's bytes with their secrets hidden; `nil` when they cannot be known before the
    /// transport sends them (a stream, which is read once) or cannot be read (a missing file,
    /// which fails the transfer anyway). A multipart form is rendered with
    /// ``multipartBoundary``, fields whose names look like credentials hidden.
    static func redactedBytes(of body: HTTPBody, redaction: Redaction) -> Data? {
        switch body {
        case .none:
            return Data()
        case .data(let data):
            return redaction.redactingBody(data)
        case .file(let url):
            return (try? Data(contentsOf: url)).map(redaction.redactingBody)
        case .multipart(let form):
            return rendering(form, redaction: redaction)
        case .stream:
            return nil
        }
    }

    private static func rendering(_ form: MultipartFormData, redaction: Redaction) -> Data? {
        var rendered = Data()
        for part in form.parts {
            var head = "--\(multipartBoundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\""
            if let fileName = part.fileName { head += "; filename=\"\(fileName)\"" }
            head += "\r\n"
            if let mimeType = part.mimeType { head += "Content-Type: \(mimeType)\r\n" }
            rendered.append(contentsOf: (head + "\r\n").utf8)
            switch part.content {
            case .data(let data):
                rendered.append(redaction.redactsParameter(named: part.name) ? Data(redaction.replacement.utf8)
                                : redaction.redactingBody(data))
            case .file(let url):
                guard let data = try? Data(contentsOf: url) else { return nil }
                rendered.append(data)
            }
            rendered.append(contentsOf: "\r\n".utf8)
        }
        rendered.append(contentsOf: "--\(multipartBoundary)--\r\n".utf8)
        return rendered
    }
}

extension CassetteInteraction.RecordedResponse {
    /// `response` as the file keeps it: headers redacted (`Set-Cookie` values, tokens), in
    /// order; `body` as it is (the file's bytes, for a download to a file).
    init(_ response: HTTPResponse, body: Data, redaction: Redaction) {
        self.init(status: response.statusCode, httpVersion: response.httpVersion.rawValue,
                  headers: redaction.redacting(response.headers).fields.map(CassetteInteraction.Header.init),
                  body: body)
    }

    /// The response to replay for `request`: its URL is the request's (the hop it answers),
    /// its body in memory (a download's plan writes it to the destination), its source `.stub`.
    func replayed(for request: HTTPRequest) -> HTTPResponse {
        HTTPResponse(statusCode: status,
                     headers: HTTPHeaders(headers.map { HTTPHeaders.Field(name: $0.name, value: $0.value) }),
                     body: body, url: request.url, httpVersion: HTTPVersion(rawValue: httpVersion) ?? .unknown,
                     source: .stub)
    }
}

extension CassetteInteraction.Header {
    init(_ field: HTTPHeaders.Field) {
        self.init(name: field.name, value: field.value)
    }
}
