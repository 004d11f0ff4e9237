@testable import Cache
import Digest
import Foundation
import HTTPCore

/// Fixed metadata values and the exact bytes of their files, written by the cache before it had
/// a writer of its own (with the request-parameter JSON encoder), in the SHA-256 framing
/// (`CHAINC01`). The bytes pin the on-disk format: a store written by any version must read
/// back, and this one must write the same payload (in the CRC-32 framing, `CHAINC02`).
enum CacheMetadataFixture {
    /// With validators and expiry; without them; and awkward values (exponent times, a
    /// negative zero, `Vary` values in an order that sorting must fix, control characters).
    static func metadata() throws -> [CacheMetadata] {
        guard let url = URL(string: "https://e.com/a/%C3%A9?q=1&ids%5B%5D=2") else { throw CorruptionError("no URL") }
        let key = CacheKey(rawValue: "chain-cache-key/1\nGET\nhttps://e.com/a/%C3%A9?ids%5B%5D=2&q=1\nbody:none\ncredentials:none")
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "X-Awkward", value: "quote \" backslash \\ tab \t control \u{1} \u{1F} del \u{7F} ünïcödé ✓ </script>")
        headers.add(name: "X-Awkward", value: "")
        let plain = CacheEntry(key: key, url: url, statusCode: 200, headers: headers, httpVersion: .http1_1,
                               body: Data("{}".utf8), requestSentAt: Date(timeIntervalSince1970: 1_764_499_999.5),
                               storedAt: Date(timeIntervalSince1970: 1_764_500_000.123_456))
        var validated = plain
        validated.headers.add(name: "ETag", value: "\"v1\"")
        validated.headers.add(name: "Last-Modified", value: "Tue, 01 Dec 2026 10:00:00 GMT")
        validated.headers.add(name: "Cache-Control", value: "max-age=60")
        validated.headers.add(name: "Vary", value: "Accept-Language, Accept")
        validated.varyValues = ["accept-language": "de, en;q=0.5", "accept": ""]
        let bodyFile = key.fileName + "-0123456789abcdef.body"
        var awkward = CacheMetadata(entry: validated, bodyFile: bodyFile, bodySHA256: SHA256.hexDigest(Data("{}".utf8)))
        awkward.statusCode = 599
        awkward.httpVersion = "HTTP/2"
        awkward.requestSentAt = 1e16
        awkward.storedAt = -0.0
        awkward.expiresAt = 0.1
        awkward.etag = "W/\"tab\there\r\nnewline\""
        awkward.varyValues = ["b": "2", "A": "1", "é": "3", "a": "\u{0}", "B": "\\"]
        awkward.bodyLength = 1 << 40
        return [CacheMetadata(entry: validated, bodyFile: bodyFile, bodySHA256: SHA256.hexDigest(validated.body)),
                CacheMetadata(entry: plain, bodyFile: bodyFile, bodySHA256: SHA256.hexDigest(plain.body)),
                awkward]
    }

    /// The files of ``metadata()``, in order, base64: magic `CHAINC01`, length, JSON payload, SHA-256.
    static let files: [String] = [
        [
            "Q0hBSU5DMDF5AwAAAAAAAHsiYm9keUZpbGUiOiI5NTIzMmM2MzY5OGFiM2IxZGU1MDUwZjk2OTM1MjM0YmJhMmIwNTgzMzYz",
            "NTMxM2M5NWRhNzhiNzI3YzljZmI2LTAxMjM0NTY3ODlhYmNkZWYuYm9keSIsImJvZHlMZW5ndGgiOjIsImJvZHlTSEEyNTYi",
            "OiI0NDEzNmZhMzU1YjM2NzhhMTE0NmFkMTZmN2U4NjQ5ZTk0ZmI0ZmMyMWZlNzdlODMxMGMwNjBmNjFjYWFmZjhhIiwiZXRh",
            "ZyI6IlwidjFcIiIsImV4cGlyZXNBdCI6MTc2NDUwMDA1OS41LCJoZWFkZXJzIjpbWyJDb250ZW50LVR5cGUiLCJhcHBsaWNh",
            "dGlvbi9qc29uIl0sWyJYLUF3a3dhcmQiLCJxdW90ZSBcIiBiYWNrc2xhc2ggXFwgdGFiIFx0IGNvbnRyb2wgXHUwMDAxIFx1",
            "MDAxZiBkZWwgfyDDvG7Dr2PDtmTDqSDinJMgPC9zY3JpcHQ+Il0sWyJYLUF3a3dhcmQiLCIiXSxbIkVUYWciLCJcInYxXCIi",
            "XSxbIkxhc3QtTW9kaWZpZWQiLCJUdWUsIDAxIERlYyAyMDI2IDEwOjAwOjAwIEdNVCJdLFsiQ2FjaGUtQ29udHJvbCIsIm1h",
            "eC1hZ2U9NjAiXSxbIlZhcnkiLCJBY2NlcHQtTGFuZ3VhZ2UsIEFjY2VwdCJdXSwiaHR0cFZlcnNpb24iOiJIVFRQLzEuMSIs",
            "ImtleSI6ImNoYWluLWNhY2hlLWtleS8xXG5HRVRcbmh0dHBzOi8vZS5jb20vYS8lQzMlQTk/aWRzJTVCJTVEPTImcT0xXG5i",
            "b2R5Om5vbmVcbmNyZWRlbnRpYWxzOm5vbmUiLCJsYXN0TW9kaWZpZWQiOiJUdWUsIDAxIERlYyAyMDI2IDEwOjAwOjAwIEdN",
            "VCIsInJlcXVlc3RTZW50QXQiOjE3NjQ0OTk5OTkuNSwic3RhdHVzQ29kZSI6MjAwLCJzdG9yZWRBdCI6MTc2NDUwMDAwMC4x",
            "MjM0NTYsInVybCI6Imh0dHBzOi8vZS5jb20vYS8lQzMlQTk/cT0xJmlkcyU1QiU1RD0yIiwidmFyeVZhbHVlcyI6eyJhY2Nl",
            "cHQiOiIiLCJhY2NlcHQtbGFuZ3VhZ2UiOiJkZSwgZW47cT0wLjUifX1jAjW0sa+FNNxEFvK3tMWsdcoXROHqo9cUxYQPxsQX",
            "HA==",
        ].joined(),
        [
            "Q0hBSU5DMDFvAgAAAAAAAHsiYm9keUZpbGUiOiI5NTIzMmM2MzY5OGFiM2IxZGU1MDUwZjk2OTM1MjM0YmJhMmIwNTgzMzYz",
            "NTMxM2M5NWRhNzhiNzI3YzljZmI2LTAxMjM0NTY3ODlhYmNkZWYuYm9keSIsImJvZHlMZW5ndGgiOjIsImJvZHlTSEEyNTYi",
            "OiI0NDEzNmZhMzU1YjM2NzhhMTE0NmFkMTZmN2U4NjQ5ZTk0ZmI0ZmMyMWZlNzdlODMxMGMwNjBmNjFjYWFmZjhhIiwiaGVh",
            "ZGVycyI6W1siQ29udGVudC1UeXBlIiwiYXBwbGljYXRpb24vanNvbiJdLFsiWC1Bd2t3YXJkIiwicXVvdGUgXCIgYmFja3Ns",
            "YXNoIFxcIHRhYiBcdCBjb250cm9sIFx1MDAwMSBcdTAwMWYgZGVsIH8gw7xuw69jw7Zkw6kg4pyTIDwvc2NyaXB0PiJdLFsi",
            "WC1Bd2t3YXJkIiwiIl1dLCJodHRwVmVyc2lvbiI6IkhUVFAvMS4xIiwia2V5IjoiY2hhaW4tY2FjaGUta2V5LzFcbkdFVFxu",
            "aHR0cHM6Ly9lLmNvbS9hLyVDMyVBOT9pZHMlNUIlNUQ9MiZxPTFcbmJvZHk6bm9uZVxuY3JlZGVudGlhbHM6bm9uZSIsInJl",
            "cXVlc3RTZW50QXQiOjE3NjQ0OTk5OTkuNSwic3RhdHVzQ29kZSI6MjAwLCJzdG9yZWRBdCI6MTc2NDUwMDAwMC4xMjM0NTYs",
            "InVybCI6Imh0dHBzOi8vZS5jb20vYS8lQzMlQTk/cT0xJmlkcyU1QiU1RD0yIiwidmFyeVZhbHVlcyI6e319r+Z28QNCCrf/",
            "w2N1oF6t3t9FregN6kLBhHIgY8FIaFI=",
        ].joined(),
        [
            "Q0hBSU5DMDF5AwAAAAAAAHsiYm9keUZpbGUiOiI5NTIzMmM2MzY5OGFiM2IxZGU1MDUwZjk2OTM1MjM0YmJhMmIwNTgzMzYz",
            "NTMxM2M5NWRhNzhiNzI3YzljZmI2LTAxMjM0NTY3ODlhYmNkZWYuYm9keSIsImJvZHlMZW5ndGgiOjEwOTk1MTE2Mjc3NzYs",
            "ImJvZHlTSEEyNTYiOiI0NDEzNmZhMzU1YjM2NzhhMTE0NmFkMTZmN2U4NjQ5ZTk0ZmI0ZmMyMWZlNzdlODMxMGMwNjBmNjFj",
            "YWFmZjhhIiwiZXRhZyI6IlcvXCJ0YWJcdGhlcmVcclxubmV3bGluZVwiIiwiZXhwaXJlc0F0IjowLjEsImhlYWRlcnMiOltb",
            "IkNvbnRlbnQtVHlwZSIsImFwcGxpY2F0aW9uL2pzb24iXSxbIlgtQXdrd2FyZCIsInF1b3RlIFwiIGJhY2tzbGFzaCBcXCB0",
            "YWIgXHQgY29udHJvbCBcdTAwMDEgXHUwMDFmIGRlbCB/IMO8bsOvY8O2ZMOpIOKckyA8L3NjcmlwdD4iXSxbIlgtQXdrd2Fy",
            "ZCIsIiJdLFsiRVRhZyIsIlwidjFcIiJdLFsiTGFzdC1Nb2RpZmllZCIsIlR1ZSwgMDEgRGVjIDIwMjYgMTA6MDA6MDAgR01U",
            "Il0sWyJDYWNoZS1Db250cm9sIiwibWF4LWFnZT02MCJdLFsiVmFyeSIsIkFjY2VwdC1MYW5ndWFnZSwgQWNjZXB0Il1dLCJo",
            "dHRwVmVyc2lvbiI6IkhUVFAvMiIsImtleSI6ImNoYWluLWNhY2hlLWtleS8xXG5HRVRcbmh0dHBzOi8vZS5jb20vYS8lQzMl",
            "QTk/aWRzJTVCJTVEPTImcT0xXG5ib2R5Om5vbmVcbmNyZWRlbnRpYWxzOm5vbmUiLCJsYXN0TW9kaWZpZWQiOiJUdWUsIDAx",
            "IERlYyAyMDI2IDEwOjAwOjAwIEdNVCIsInJlcXVlc3RTZW50QXQiOjFlKzE2LCJzdGF0dXNDb2RlIjo1OTksInN0b3JlZEF0",
            "IjowLCJ1cmwiOiJodHRwczovL2UuY29tL2EvJUMzJUE5P3E9MSZpZHMlNUIlNUQ9MiIsInZhcnlWYWx1ZXMiOnsiQSI6IjEi",
            "LCJCIjoiXFwiLCJhIjoiXHUwMDAwIiwiYiI6IjIiLCLDqSI6IjMifX0ER3vwfyKdBHUkMGSdM4GqF1e9aJXh/wgSnZmeLK+O",
            "Cg==",
        ].joined(),
    ]
}
