import CZlib

/// One-shot compression with zlib, for the /gzip, /deflate and /gzip-bomb routes.
enum ZlibCompressor {
    /// The container around the deflate stream.
    enum Format {
        /// RFC 1952, `Content-Encoding: gzip`.
        case gzip
        /// RFC 1950 (what HTTP calls `deflate`).
        case zlib

        var windowBits: Int32 { self == .gzip ? 15 + 16 : 15 }
    }

    /// `input` compressed; nil only if zlib fails (out of memory).
    static func compress(_ input: [UInt8], format: Format) -> [UInt8]? {
        run(format: format) { feed in
            input.withUnsafeBytes { feed($0, true) }
        }
    }

    /// `count` zero bytes compressed, without ever holding them: the input is one reused
    /// 1 MiB block of zeros.
    static func compressZeros(count: Int, format: Format) -> [UInt8]? {
        let block = [UInt8](repeating: 0, count: 1 << 20)
        return run(format: format) { feed in
            var left = max(0, count)
            repeat {
                let take = min(left, block.count)
                left -= take
                let ok = block.withUnsafeBytes { feed(UnsafeRawBufferPointer(rebasing: $0[0..<take]), left == 0) }
                if !ok { return false }
            } while left > 0
            return true
        }
    }

    /// Drives one deflate stream; `produce` calls `feed(bytes, isLast)` until it passes `isLast`.
    private static func run(
        format: Format,
        _ produce: (_ feed: (UnsafeRawBufferPointer, Bool) -> Bool) -> Bool
    ) -> [UInt8]? {
        // Heap-allocated because zlib keeps a pointer back to the stream and checks it on every call.
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer {
            stream.deinitialize(count: 1)
            stream.deallocate()
        }
        guard deflateInit2_(stream, Z_BEST_COMPRESSION, Z_DEFLATED, format.windowBits, 8, Z_DEFAULT_STRATEGY,
                            zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { deflateEnd(stream) }

        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let ok = produce { input, isLast in
            let inputBase = input.baseAddress.map { UnsafeMutablePointer(mutating: $0.assumingMemoryBound(to: UInt8.self)) }
            stream.pointee.next_in = inputBase
            stream.pointee.avail_in = UInt32(input.count)
            let flush = isLast ? Z_FINISH : Z_NO_FLUSH
            while true {
                let (status, produced) = chunk.withUnsafeMutableBufferPointer { out -> (Int32, Int) in
                    stream.pointee.next_out = out.baseAddress
                    stream.pointee.avail_out = UInt32(out.count)
                    let status = deflate(stream, flush)
                    return (status, out.count - Int(stream.pointee.avail_out))
                }
                output.append(contentsOf: chunk[0..<produced])
                if status == Z_STREAM_END { return true }
                guard status == Z_OK || status == Z_BUF_ERROR else { return false }
                // Without Z_FINISH, zlib is done with this input once it leaves output space unused.
                if !isLast && stream.pointee.avail_out != 0 { return true }
            }
        }
        return ok ? output : nil
    }
}
