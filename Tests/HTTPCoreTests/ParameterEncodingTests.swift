import CurlTransport
import Foundation
import HTTPCore
import HTTPFeatures
import Testing

@Suite("Parameter encoding")
struct ParameterEncodingTests {
    @Test func nestedValuesAreEncodedTheAFNetworkingWay() throws {
        let parameters = try Parameter.dictionary(from: [
            "user": ["name": "x y", "age": 3],
            "ids": [1, 2],
            "flag": true,
            "empty": NSNull(),
            "a": "é&=",
        ])
        #expect(ParameterEncoding.urlEncodedString(parameters)
            == "a=%C3%A9%26%3D&empty&flag=1&ids%5B%5D=1&ids%5B%5D=2&user%5Bage%5D=3&user%5Bname%5D=x%20y")
    }

    @Test func keyOrderIsDeterministic() throws {
        let a = try Parameter.dictionary(from: ["b": 1, "a": 2, "c": ["z": 1, "y": 2]])
        let b = try Parameter.dictionary(from: ["c": ["y": 2, "z": 1], "a": 2, "b": 1])
        #expect(ParameterEncoding.urlEncodedString(a) == ParameterEncoding.urlEncodedString(b))
        #expect(try ParameterEncoding.jsonData(.dictionary(a)) == ParameterEncoding.jsonData(.dictionary(b)))
        #expect(String(decoding: try ParameterEncoding.jsonData(.dictionary(a)), as: UTF8.self)
            == #"{"a":2,"b":1,"c":{"y":2,"z":1}}"#)
    }

    @Test func jsonNumbersAndStringsAreCanonical() throws {
        let value = try Parameter(any: ["d": 1.5, "i": 3.0, "s": "line\n\"q\"\u{1}", "n": NSNull(), "b": false])
        #expect(String(decoding: try ParameterEncoding.jsonData(value), as: UTF8.self)
            == #"{"b":false,"d":1.5,"i":3,"n":null,"s":"line\n\"q\"\u0001"}"#)
    }

    @Test func nanAndInfinityAreRejectedInJSON() throws {
        for bad in [Double.nan, .infinity, -.infinity] {
            let value = try Parameter(any: ["x": ["y": bad]])
            #expect(throws: NetworkError.self) { try ParameterEncoding.jsonData(value) }
            do {
                _ = try ParameterEncoding.jsonData(value)
            } catch {
                #expect(error.kind == .invalidParameters)
                #expect(error.message.contains("x.y"))
            }
        }
    }

    @Test func unsupportedValuesAreTypedErrors() {
        struct Opaque {}
        #expect(throws: NetworkError.self) { try Parameter.dictionary(from: ["o": Opaque()]) }
    }

    @Test func foundationNumbersKeepTheirKind() throws {
        let object = try JSONSerialization.jsonObject(with: Data(#"{"t":true,"i":1,"d":1.25}"#.utf8))
        let parameter = try Parameter(any: object)
        #expect(parameter == .dictionary(["t": .bool(true), "i": .int(1), "d": .double(1.25)]))
    }

    @Test func queryIsAppendedAfterAnExistingOne() throws {
        var request = HTTPRequest(url: try #require(URL(string: "http://h/p?x=1#frag")))
        try ParameterEncoding.query.encode(["q": .string("a b")], into: &request)
        #expect(request.url.absoluteString == "http://h/p?x=1&q=a%20b#frag")
    }

    @Test func formAndJSONSetTheBodyAndContentType() throws {
        var form = HTTPRequest(url: try #require(URL(string: "http://h/")), method: .post)
        try ParameterEncoding.form.encode(["k": .string("v")], into: &form)
        #expect(form.body == .data(Data("k=v".utf8)))
        #expect(form.headers["Content-Type"] == "application/x-www-form-urlencoded; charset=utf-8")

        var json = HTTPRequest(url: try #require(URL(string: "http://h/")), method: .post)
        try ParameterEncoding.json.encode(["k": .array([.int(1)])], into: &json)
        #expect(json.body == .data(Data(#"{"k":[1]}"#.utf8)))
        #expect(json.headers["Content-Type"] == "application/json")
    }

    @Test func defaultEncodingFollowsAFNetworking() {
        #expect(ParameterEncoding.default(for: .get) == .query)
        #expect(ParameterEncoding.default(for: .head) == .query)
        #expect(ParameterEncoding.default(for: .delete) == .query)
        #expect(ParameterEncoding.default(for: .post) == .form)
        #expect(ParameterEncoding.default(for: .put) == .form)
        #expect(ParameterEncoding.default(for: .patch) == .form)
    }
}
