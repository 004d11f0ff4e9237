import HTTPCore
/// The code and message of an envelope, read at ``KeyPathContext/codePath`` and
/// ``KeyPathContext/messagePath``; the payload is not touched.
struct EnvelopeHeader: Decodable {
    let code: String
    let message: String

    init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    init(from decoder: any Decoder) throws {
        let codePath = KeyPathContext.codePath
        guard let codeKey = codePath.last else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "the envelope has an empty code path"))
        }
        let codeContainer = try KeyPathContext.parentContainer(of: codePath, in: decoder)
        code = try codeContainer.decode(EnvelopeCode.self, forKey: DynamicCodingKey(codeKey)).value

        // The message is informative only: a missing or odd one must not hide the code.
        let messagePath = KeyPathContext.messagePath
        if let messageKey = messagePath.last,
           let container = try? KeyPathContext.parentContainer(of: messagePath, in: decoder),
           let message = try? container.decodeIfPresent(EnvelopeCode.self, forKey: DynamicCodingKey(messageKey)) {
            self.message = message.value
        } else {
            message = ""
        }
    }
}
