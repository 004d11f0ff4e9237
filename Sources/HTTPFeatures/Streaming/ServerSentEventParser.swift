import Foundation
import HTTPCore

/// The HTML specification's event-stream interpretation, fed chunk by chunk: a leading BOM
/// skipped, LF, CRLF and CR line ends (a CRLF split across chunks included), comments, fields,
/// and the dispatch at each blank line.
///
/// Bytes are scanned for line ends directly; only complete lines are decoded (as UTF-8, invalid
/// bytes replaced by U+FFFD). An unfinished line is held up to ``lineLimit`` bytes.
public struct ServerSentEventParser: Sendable {
    /// Bytes in one line, without its end.
    public let lineLimit: Int
    /// The last event ID buffer: persists across events, and across connections (``restart()``).
    public private(set) var lastEventID = ""
    /// Milliseconds, from the last valid `retry` field (also one in a block that dispatched
    /// nothing); `nil` until one arrived.
    public private(set) var reconnectionTime: Int?

    private var partial = Data()
    /// The last line ended with a CR: an LF first in the next chunk belongs to it.
    private var skipsLeadingLF = false
    /// Bytes of the stream seen so far, up to the BOM's three (to skip one at the start).
    private var bomState = BOMState.checking(seen: 0)
    private var data = ""
    private var hasData = false
    private var eventType = ""
    private var blockRetry: Int?

    private enum BOMState: Sendable {
        case checking(seen: Int)
        case done
    }

    private static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// - Parameter lineLimit: bytes in one line, without its end; a longer one fails with
    ///   ``NetworkError/Kind/responseTooLarge``. Default 1 MiB.
    public init(lineLimit: Int = 1 << 20) {
        self.lineLimit = max(lineLimit, 1)
    }

    /// The events `chunk` completes, in order.
    /// - Throws: ``NetworkError/Kind/responseTooLarge`` as soon as an unfinished line exceeds
    ///   ``lineLimit``.
    public mutating func parse(_ chunk: Data) throws(NetworkError) -> [ServerSentEvent] {
        var bytes = chunk[...]
        if case .checking(var seen) = bomState {
            // The BOM may arrive split across chunks: match it byte by byte.
            while seen < 3, let byte = bytes.first {
                guard byte == Self.bom[seen] else { break }
                seen += 1
                bytes = bytes.dropFirst()
            }
            if seen == 3 || !bytes.isEmpty {
                if seen > 0, seen < 3 {
                    // A partial match that is no BOM: those bytes were text.
                    partial.append(contentsOf: Self.bom[0..<seen])
                }
                bomState = .done
            } else {
                bomState = .checking(seen: seen)
                return []
            }
        }
        var events: [ServerSentEvent] = []
        if skipsLeadingLF, bytes.first == 0x0A { bytes = bytes.dropFirst() }
        skipsLeadingLF = false
        var start = bytes.startIndex
        let end = bytes.endIndex
        while start < end {
            guard let lineEnd = bytes[start..<end].firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) else { break }
            let isCR = bytes[lineEnd] == 0x0D
            if partial.isEmpty {
                try process(bytes[start..<lineEnd], into: &events)
            } else {
                partial.append(bytes[start..<lineEnd])
                let line = partial
                partial = Data()
                try process(line[...], into: &events)
            }
            start = lineEnd + 1
            if isCR {
                if start < end {
                    if bytes[start] == 0x0A { start += 1 }
                } else {
                    skipsLeadingLF = true
                }
            }
        }
        if start < end {
            partial.append(bytes[start..<end])
            guard partial.count <= lineLimit else {
                throw NetworkError(.responseTooLarge, "an event-stream line is longer than \(lineLimit) bytes")
            }
        }
        return events
    }

    /// The end of the stream: an event without its blank line, and an unfinished line, are
    /// discarded, as the specification says.
    public mutating func finish() {
        partial = Data()
        skipsLeadingLF = false
        resetBlock()
    }

    /// A new connection: the buffers start over (a BOM may lead again), the last event ID and
    /// the reconnection time stay.
    public mutating func restart() {
        finish()
        bomState = .checking(seen: 0)
    }

    private mutating func resetBlock() {
        data = ""
        hasData = false
        eventType = ""
        blockRetry = nil
    }

    private mutating func process(_ line: Data.SubSequence, into events: inout [ServerSentEvent]) throws(NetworkError) {
        guard line.count <= lineLimit else {
            throw NetworkError(.responseTooLarge, "an event-stream line is longer than \(lineLimit) bytes")
        }
        guard let first = line.first else {
            dispatch(into: &events)
            return
        }
        if first == UInt8(ascii: ":") { return }
        let name: Data.SubSequence
        var value: Data.SubSequence
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            name = line[line.startIndex..<colon]
            value = line[(colon + 1)...]
            if value.first == 0x20 { value = value.dropFirst() }
        } else {
            name = line
            value = line[line.endIndex...]
        }
        switch name.count {
        case 4 where name.elementsEqual("data".utf8):
            data += String(decoding: value, as: UTF8.self)
            data += "\n"
            hasData = true
        case 5 where name.elementsEqual("event".utf8):
            eventType = String(decoding: value, as: UTF8.self)
        case 2 where name.elementsEqual("id".utf8):
            if !value.contains(0) { lastEventID = String(decoding: value, as: UTF8.self) }
        case 5 where name.elementsEqual("retry".utf8):
            if !value.isEmpty, value.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
                // More digits than an Int holds: the longest wait there is.
                let milliseconds = Int(String(decoding: value, as: UTF8.self)) ?? Int.max
                reconnectionTime = milliseconds
                blockRetry = milliseconds
            }
        default:
            break
        }
    }

    private mutating func dispatch(into events: inout [ServerSentEvent]) {
        defer { resetBlock() }
        guard hasData else { return }
        if data.hasSuffix("\n") { data.removeLast() }
        events.append(ServerSentEvent(id: lastEventID.isEmpty ? nil : lastEventID,
                                      event: eventType.isEmpty ? "message" : eventType, data: data, retry: blockRetry))
    }
}
