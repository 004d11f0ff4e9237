import CCurl
import Foundation
import HTTPCore

// A response body streamed to the request's `ResponseStream` (loop thread): the decision at
// the end of each head, the chunks with their backpressure, and the resume.

extension CurlTransfer {
    /// Called at the blank line ending a head: a final head the stream accepts opens it, and
    /// the body that follows goes there. A `1xx` head, a redirect the pipeline follows and a
    /// refused status leave the body to be collected as usual (an error body, within the size
    /// limit, for the pipeline's error).
    func headDidEnd() {
        guard let stream = request.responseStream, !isStreaming, head.statusCode >= 200, head.violation == nil else { return }
        var response = partialResponse()
        response.headers = CurlResponseHeadRecorder.headers(in: head.bytes)
        if RedirectPolicy.follows(head.statusCode), case .follow = request.redirectPolicy,
           response.headers["Location"] != nil { return }
        guard stream.acceptance.accepts(response) else { return }
        isStreaming = true
        stream.open(response, resume: requestResume ?? {})
    }

    /// Offers a chunk to the stream; pauses the transfer when its buffer is full (libcurl keeps
    /// the chunk and offers it again after `curl_easy_pause` resumes it).
    func stream(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard let stream = request.responseStream else { return 0 }
        if stream.offer(bytes) {
            receivedBytes += Int64(bytes.count)
            return bytes.count
        }
        isReceivePaused = true
        return Int(CURL_WRITEFUNC_PAUSE)
    }

    /// The read callback of a stream body: its next bytes, or a pause until the producer has some.
    func readStream(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        guard let stream = request.body.stream else { return Int(CURL_READFUNC_ABORT) }
        switch stream.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: capacity)) {
        case .bytes(let count): return count
        case .end: return 0
        case .pause:
            isSendPaused = true
            return Int(CURL_READFUNC_PAUSE)
        case .failed(let error):
            failure = error
            return Int(CURL_READFUNC_ABORT)
        }
    }

    /// Resumes a transfer paused for its stream (the engine's resume command). Both directions
    /// go on: a side that is still not ready pauses again at its next callback.
    func resumeIfPaused() {
        guard let easy, !isFinished, isReceivePaused || isSendPaused else { return }
        isReceivePaused = false
        isSendPaused = false
        // The idle clock starts again from here (see `hasBeenIdle`).
        if idleSince > 0 { idleSince = DispatchTime.now().uptimeNanoseconds }
        _ = curl_easy_pause(easy, Int32(CURLPAUSE_RECV_CONT | CURLPAUSE_SEND_CONT))
    }
}
