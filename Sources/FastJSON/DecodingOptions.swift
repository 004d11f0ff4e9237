import Foundation

/// The settings of one decode call, copied from `FastJSONDecoder` so the
/// decoder's state can't change underneath a running decode.
struct DecodingOptions: Sendable {
    var keyDecodingStrategy: JSONDecoder.KeyDecodingStrategy
    var dateDecodingStrategy: JSONDecoder.DateDecodingStrategy
    var dataDecodingStrategy: JSONDecoder.DataDecodingStrategy
    var nonConformingFloatDecodingStrategy: JSONDecoder.NonConformingFloatDecodingStrategy
    var userInfo: [CodingUserInfoKey: any Sendable]
    /// `keyDecodingStrategy` is `.useDefaultKeys`: keys can be matched byte for byte.
    let usesDefaultKeys: Bool

    init(
        keyDecodingStrategy: JSONDecoder.KeyDecodingStrategy,
        dateDecodingStrategy: JSONDecoder.DateDecodingStrategy,
        dataDecodingStrategy: JSONDecoder.DataDecodingStrategy,
        nonConformingFloatDecodingStrategy: JSONDecoder.NonConformingFloatDecodingStrategy,
        userInfo: [CodingUserInfoKey: any Sendable]
    ) {
        self.keyDecodingStrategy = keyDecodingStrategy
        self.dateDecodingStrategy = dateDecodingStrategy
        self.dataDecodingStrategy = dataDecodingStrategy
        self.nonConformingFloatDecodingStrategy = nonConformingFloatDecodingStrategy
        self.userInfo = userInfo
        if case .useDefaultKeys = keyDecodingStrategy {
            usesDefaultKeys = true
        } else {
            usesDefaultKeys = false
        }
    }
}
