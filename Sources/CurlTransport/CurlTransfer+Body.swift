import CCurl
import Foundation
import HTTPCore

#if canImport(Glibc)
import Glibc
#endif

// The write and read callbacks (loop thread): the response body as it arrives, the upload
// file as libcurl reads it.

extension CurlTransfer {
    func didReceiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        // The body of a redirect the pipeline will follow belongs to no one (libcurl's own
        // following skipped it too): it is neither kept nor counted against the limit. A
        // custom handler may stop and deliver the redirect, so its body is kept.
        if isDiscardingBody { return bytes.count }
        if receivedBytes == 0, RedirectPolicy.follows(head.statusCode), case .follow = request.redirectPolicy,
           headerValue("Location") != nil {
            isDiscardingBody = true
            return bytes.count
        }
        // A streamed body bypasses the size limit: the stream's own buffer bounds it.
        if isStreaming { return stream(bytes) }
        let count = Int64(bytes.count)
        // Only a 2xx body goes to the download's file, under its own limit (nil: none).
        let download = (200..<300).contains(head.statusCode) ? request.download : nil
        let limit = download == nil ? request.maximumResponseSize : download?.maximumSize
        // At the first chunk libcurl has parsed Content-Length (-1 when absent): a body announced
        // larger than the limit is refused before any of it is kept. The check lives here, not in
        // CURLOPT_MAXFILESIZE, because libcurl applies that to every head: a HEAD or a 304 for a
        // large resource, whose Content-Length announces no body, failed with it.
        let announced = receivedBytes == 0 ? info(CURLINFO_CONTENT_LENGTH_DOWNLOAD_T) : -1
        if let limit, receivedBytes + max(count, announced) > limit {
            exceededSizeLimit = true
            return 0  // makes libcurl abort with CURLE_WRITE_ERROR
        }
        receivedBytes += count
        if let download { return writeDownload(bytes, to: download) }
        // No header lookup for the reserve, and no flag to keep: the length is read above.
        if announced > reservedBodyCapacity {
            // Trust Content-Length only up to the limit, so a lying server cannot make us allocate.
            body.reserveCapacity(Int(min(announced, request.maximumResponseSize, 64 * 1024 * 1024)))
        }
        body.append(bytes.assumingMemoryBound(to: UInt8.self))
        return bytes.count
    }

    func readUpload(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        while true {
            let count = read(uploadFD, buffer, capacity)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            fileError = "cannot read the upload file: \(String(cString: strerror(errno)))"
            return Int(CURL_READFUNC_ABORT)
        }
    }
}
