import FastJSON
import HTTPCore
import HTTPFeatures

// The one serializer of both front ends' ObjectMapper methods: the body, or the envelope's
// payload, parsed by FastJSON and mapped.
extension ResponseSerializer {
    /// A model from the object at the payload path.
    static func mappedObject<T: BaseMappable & SendableMetatype>(_ type: T.Type) -> ResponseSerializer<MappedHandOff<T>>
    where Value == MappedHandOff<T> {
        ResponseSerializer { response, envelope throws(NetworkError) in
            let json = try payload(response, envelope, expecting: .object, for: "\(T.self)")
            guard let model = Mapper<T>().map(json) else {
                throw NetworkError(.decodingFailed, "could not map \(T.self): init?(map:) returned nil", response: response)
            }
            return MappedHandOff(value: model)
        }
    }

    /// Models from the array of objects at the payload path (rejected ones dropped, as in
    /// ObjectMapper).
    static func mappedArray<T: BaseMappable & SendableMetatype>(_ type: T.Type) -> ResponseSerializer<MappedHandOff<[T]>>
    where Value == MappedHandOff<[T]> {
        ResponseSerializer { response, envelope throws(NetworkError) in
            let json = try payload(response, envelope, expecting: .array, for: "[\(T.self)]")
            guard let models = Mapper<T>().mapArray(json) else {
                throw NetworkError(.decodingFailed, "could not map [\(T.self)]: an element is not a JSON object",
                                   response: response)
            }
            return MappedHandOff(value: models)
        }
    }

    private static func payload(_ response: HTTPResponse, _ envelope: Envelope?, expecting kind: JSONValue.Kind,
                                for name: String) throws(NetworkError) -> JSONValue {
        let root: JSONValue
        do {
            root = try JSONValue(parsing: response.body)
        } catch {
            throw NetworkError(.decodingFailed, "could not map \(name): the body is not JSON", response: response,
                               underlyingError: error)
        }
        let path = envelope?.payloadPath ?? ""
        guard let json = root.value(atKeyPath: path) else {
            throw NetworkError(.decodingFailed, "could not map \(name): the key path \(path) is missing", response: response,
                               codingPath: path)
        }
        guard json.kind == kind else {
            let place = path.isEmpty ? "the top level" : path
            throw NetworkError(.decodingFailed, "could not map \(name): expected a JSON \(kind) at \(place), found \(json.kind)",
                               response: response, codingPath: path.isEmpty ? nil : path)
        }
        return json
    }
}
