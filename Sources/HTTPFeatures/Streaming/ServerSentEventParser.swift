import Foundation
import HTTPCore

/// Reads a `text/event-stream` body chunk by chunk into ``ServerSentEvent``s, by the WHATWG
/// HTML rules for parsing and interpreting an event stream.
///
/// It scans bytes (line ends, colons, field names) and decodes UTF-8 only for the values it
/// keeps, with U+FFFD for invalid bytes; line ends (LF, CRLF, CR) and a leading BOM may be split
/// across chunks, and feeding a stream in any chunking gives the same events. The unterminated
/// line it buffers is bounded by the line limit; after it throws, call ``restart()`` before
/// reading a new connection.
public struct ServerSentEventParser: Sendable {
    /// The most bytes one line may have, without its end.
    private let lineLimit: Int
    /// The bytes of the line still unterminated at the end of the last chunk.
    private var partial: [UInt8] = []
    /// The last chunk ended in CR, so an LF opening the next one ends no second line.
    private var skipLineFeed = false
    /// The leading bytes seen so far while they could still be the UTF-8 BOM; `nil` once decided.
    private var bomPrefix: [UInt8]? = []
    /// The spec's data buffer, as UTF-8 bytes.
    private var dataBuffer: [UInt8] = []
    /// The spec's event type buffer, as UTF-8 bytes.
    private var eventBuffer: [UInt8] = []
    /// The spec's last event ID buffer: `id` fields of the block not yet dispatched.
    private var idBuffer = ""
    /// A valid `retry` in the block not yet dispatched.
    private var blockRetry: Int?
    /// The data of the block not yet dispatched went over the limit (endless `data:` lines
    /// without a blank line must not grow memory without bound either).
    private var dataOverflowed = false

    /// Makes a parser; `lineLimit` is the most bytes in one line, without its end, and in one
    /// event's data (default 1 MiB).
    public init(lineLimit: Int = 1 << 20) {
        self.lineLimit = max(0, lineLimit)
    }

    /// The last event ID, `""` (the start) when none: the ID buffer's value at the last blank
    /// line, so an `id` in a block cut off by the end of the stream does not count. Kept across
    /// events and by ``restart()``, for the `Last-Event-ID` header of a reconnection.
    public private(set) var lastEventID: String = ""

    /// The reconnection time in milliseconds from the last valid `retry` field, `nil` (the
    /// start) when none; set as soon as the field is read, even in a block that dispatches
    /// nothing. Kept by ``restart()``.
    public private(set) var reconnectionTime: Int?

    /// The events `chunk` completes, in order.
    /// - Throws: ``NetworkError/Kind/responseTooLarge`` as soon as a line, complete or still
    ///   buffered, or the data of one event is longer than the limit (events completed earlier
    ///   in the chunk go with it).
    public mutating func parse(_ chunk: Data) throws(NetworkError) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        guard !chunk.isEmpty else { return events }
        if var prefix = bomPrefix {
            // The BOM is looked for only at the start of the stream, however it is split.
            let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
            var index = chunk.startIndex
            while index < chunk.endIndex, prefix.count < 3, chunk[index] == bom[prefix.count] {
                prefix.append(chunk[index])
                index += 1
            }
            if prefix.count == 3 {
                bomPrefix = nil
            } else if index == chunk.endIndex {
                bomPrefix = prefix
                return events
            } else {
                // Not a BOM after all: its first bytes are text.
                bomPrefix = nil
                if !prefix.isEmpty, !scan(Data(prefix), into: &events) { throw overflow() }
            }
            if !scan(chunk[index...], into: &events) { throw overflow() }
            return events
        }
        if !scan(chunk, into: &events) { throw overflow() }
        return events
    }

    /// Ends the stream: discards the incomplete event (its `id` included) and any unterminated
    /// line, as the spec says. The parser then reads a new stream, as after ``restart()``.
    public mutating func finish() {
        restart()
    }

    /// Starts a new connection: clears the line, data, event type and BOM state, keeping
    /// ``lastEventID`` and ``reconnectionTime``.
    public mutating func restart() {
        partial.removeAll()
        skipLineFeed = false
        bomPrefix = []
        dataBuffer.removeAll()
        eventBuffer.removeAll()
        idBuffer = lastEventID
        blockRetry = nil
        dataOverflowed = false
    }

    private func overflow() -> NetworkError {
        NetworkError(.responseTooLarge, dataOverflowed
            ? "an event's data is longer than the limit of \(lineLimit) bytes"
            : "an event-stream line is longer than the limit of \(lineLimit) bytes")
    }

    /// Feeds `bytes` to the line scanner; `false` when a line went over the limit.
    private mutating func scan(_ bytes: Data, into events: inout [ServerSentEvent]) -> Bool {
        bytes.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Bool in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return true }
            let end = raw.count
            var start = 0
            if skipLineFeed {
                skipLineFeed = false
                if base[0] == 0x0A { start = 1 }
            }
            while start < end {
                var stop = start
                while stop < end, base[stop] != 0x0A, base[stop] != 0x0D { stop += 1 }
                if stop == end {
                    partial.append(contentsOf: UnsafeBufferPointer(start: base + start, count: end - start))
                    return partial.count <= lineLimit
                }
                if partial.isEmpty {
                    if stop - start > lineLimit { return false }
                    process(UnsafeBufferPointer(start: base + start, count: stop - start), into: &events)
                    if dataOverflowed { return false }
                } else {
                    partial.append(contentsOf: UnsafeBufferPointer(start: base + start, count: stop - start))
                    if partial.count > lineLimit { return false }
                    // Swapped out so the line can be read while `self` changes.
                    var line: [UInt8] = []
                    swap(&line, &partial)
                    line.withUnsafeBufferPointer { process($0, into: &events) }
                    if dataOverflowed { return false }
                    line.removeAll(keepingCapacity: true)
                    swap(&line, &partial)
                }
                if base[stop] == 0x0D {
                    if stop + 1 == end {
                        skipLineFeed = true
                        return true
                    }
                    if base[stop + 1] == 0x0A { stop += 1 }
                }
                start = stop + 1
            }
            return true
        }
    }

    /// Interprets one line, without its end.
    private mutating func process(_ line: UnsafeBufferPointer<UInt8>, into events: inout [ServerSentEvent]) {
        guard let first = line.first else {
            dispatch(into: &events)
            return
        }
        if first == UInt8(ascii: ":") { return }
        let colon = line.firstIndex(of: UInt8(ascii: ":")) ?? line.endIndex
        let name = UnsafeBufferPointer(rebasing: line[..<colon])
        var valueStart = colon < line.endIndex ? colon + 1 : colon
        if valueStart < line.endIndex, line[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
        let value = UnsafeBufferPointer(rebasing: line[valueStart...])
        // Invalid UTF-8 never decodes to ASCII, so comparing bytes is comparing the decoded names.
        if name.elementsEqual("data".utf8) {
            guard dataBuffer.count + value.count < lineLimit else {
                dataOverflowed = true
                return
            }
            dataBuffer.append(contentsOf: value)
            dataBuffer.append(0x0A)
        } else if name.elementsEqual("event".utf8) {
            eventBuffer.removeAll(keepingCapacity: true)
            eventBuffer.append(contentsOf: value)
        } else if name.elementsEqual("id".utf8) {
            // U+0000 is the byte 0 in UTF-8 and the byte 0 is only U+0000.
            if !value.contains(0) { idBuffer = String(decoding: value, as: UTF8.self) }
        } else if name.elementsEqual("retry".utf8) {
            // An empty value is no number; one too large for `Int` saturates.
            guard !value.isEmpty, value.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return }
            var number = 0
            for digit in value {
                let (times, overflowA) = number.multipliedReportingOverflow(by: 10)
                let (sum, overflowB) = times.addingReportingOverflow(Int(digit - UInt8(ascii: "0")))
                if overflowA || overflowB {
                    number = Int.max
                    break
                }
                number = sum
            }
            blockRetry = number
            reconnectionTime = number
        }
    }

    /// The blank line: the spec's "dispatch the event".
    private mutating func dispatch(into events: inout [ServerSentEvent]) {
        lastEventID = idBuffer
        defer {
            dataBuffer.removeAll(keepingCapacity: true)
            eventBuffer.removeAll(keepingCapacity: true)
            blockRetry = nil
        }
        guard !dataBuffer.isEmpty else { return }
        let data = dataBuffer.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0.dropLast()), as: UTF8.self)
        }
        let type = eventBuffer.isEmpty ? "message" : String(decoding: eventBuffer, as: UTF8.self)
        events.append(ServerSentEvent(id: lastEventID.isEmpty ? nil : lastEventID, event: type, data: data,
                                      retry: blockRetry))
    }
}
