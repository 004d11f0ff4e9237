/// Why a request body could not be read; the connection answers 400 or 413 and closes.
package enum BodyError: Error {
    /// Bad chunked framing.
    case malformed(String)
    /// The body is larger than the route accepts.
    case tooLarge(limit: Int)
    /// The client closed before the whole body arrived.
    case truncated
}

/// A request body, read on demand in pieces as it arrives (Content-Length or chunked), so a
/// route can hash a 64 MiB upload without holding it. Lives on its connection's thread.
package final class RequestBody {
    /// How the body is delimited.
    enum Framing {
        case none
        case contentLength(Int)
        case chunked
    }

    private enum ChunkPhase {
        case size
        case data(remaining: Int)
        case done
    }

    private let reader: SocketReader
    let framing: Framing
    private var remainingLength: Int
    private var chunkPhase = ChunkPhase.size
    /// Sends `100 Continue` the first time the body is read, so a client waiting on
    /// `Expect: 100-continue` only sends when a route actually wants the body.
    private var sendContinue: (() throws -> Void)?

    /// `true` once every byte of the body (and any chunked trailer) has been consumed.
    private(set) var isFinished: Bool
    /// The body bytes consumed so far.
    private(set) var bytesRead = 0

    /// `true` while a `100 Continue` is still owed: the client has not sent the body, so the
    /// connection cannot be reused unless it is read.
    var isAwaitingContinue: Bool { sendContinue != nil }

    init(reader: SocketReader, framing: Framing, sendContinue: (() throws -> Void)?) {
        self.reader = reader
        self.framing = framing
        switch framing {
        case .none:
            remainingLength = 0
            isFinished = true
        case .contentLength(let length):
            remainingLength = length
            isFinished = length == 0
        case .chunked:
            remainingLength = 0
            isFinished = false
        }
        self.sendContinue = isFinished ? nil : sendContinue
    }

    /// The declared length, when the body has a Content-Length.
    var declaredLength: Int? {
        if case .contentLength(let length) = framing { return length }
        return nil
    }

    /// The framing error seen, repeated on every later read: after it the stream position is lost.
    private var failure: BodyError?

    /// Hands the next piece of the body to `body`; returns `false` (without calling it) at the end.
    func next(_ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        if let failure { throw failure }
        if isFinished { return false }
        do {
            return try readPiece(body)
        } catch let error as BodyError {
            failure = error
            throw error
        }
    }

    private func readPiece(_ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        if let send = sendContinue {
            sendContinue = nil
            try send()
        }
        switch framing {
        case .none:
            isFinished = true
            return false
        case .contentLength:
            let n = try reader.read(max: remainingLength, body)
            if n == 0 { throw BodyError.truncated }
            remainingLength -= n
            bytesRead += n
            if remainingLength == 0 { isFinished = true }
            return true
        case .chunked:
            return try nextChunkPiece(body)
        }
    }

    private func nextChunkPiece(_ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        while true {
            switch chunkPhase {
            case .done:
                isFinished = true
                return false
            case .size:
                let line = try readFramingLine()
                let sizeText = String(decoding: line.prefix { $0 != UInt8(ascii: ";") }, as: UTF8.self).trimmingOWS()
                guard !sizeText.isEmpty, sizeText.utf8.allSatisfy({ $0.isHexDigit }),
                      let size = Int(sizeText, radix: 16) else {
                    throw BodyError.malformed("invalid chunk size line")
                }
                if size == 0 {
                    try skipTrailers()
                    chunkPhase = .done
                } else {
                    chunkPhase = .data(remaining: size)
                }
            case .data(let remaining):
                let n = try reader.read(max: remaining, body)
                if n == 0 { throw BodyError.truncated }
                bytesRead += n
                if remaining == n {
                    guard try readFramingLine().isEmpty else { throw BodyError.malformed("chunk data longer than its size") }
                    chunkPhase = .size
                } else {
                    chunkPhase = .data(remaining: remaining - n)
                }
                return true
            }
        }
    }

    private func skipTrailers() throws {
        var total = 0
        while true {
            let line = try readFramingLine()
            if line.isEmpty { return }
            total += line.count
            if total > 16 * 1024 { throw BodyError.malformed("chunked trailer section too large") }
        }
    }

    private func readFramingLine() throws -> [UInt8] {
        do {
            return try reader.readLine(limit: 4096)
        } catch SocketReader.LineError.tooLong {
            throw BodyError.malformed("chunk framing line too long")
        } catch SocketReader.LineError.truncated {
            throw BodyError.truncated
        }
    }

    /// Reads the rest of the body into memory; throws `tooLarge` past `limit` bytes.
    package func readAll(limit: Int) throws -> [UInt8] {
        if let length = declaredLength, length - bytesRead > limit { throw BodyError.tooLarge(limit: limit) }
        var bytes: [UInt8] = []
        if let length = declaredLength { bytes.reserveCapacity(length - bytesRead) }
        while try next({ piece in
            guard bytes.count + piece.count <= limit else { throw BodyError.tooLarge(limit: limit) }
            bytes.append(contentsOf: piece)
        }) {}
        return bytes
    }

    /// Reads and discards the rest of the body, so the next request on the connection starts
    /// at the right byte.
    func drain() throws {
        while try next({ _ in }) {}
    }
}

extension UInt8 {
    /// `0-9`, `a-f` or `A-F`.
    var isHexDigit: Bool {
        (self >= 0x30 && self <= 0x39) || (self >= 0x41 && self <= 0x46) || (self >= 0x61 && self <= 0x66)
    }
}
