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
        let status = head.statusCode
        // libcurl answers these challenges itself when it has credentials: the body after the
        // next head is the one to stream.
        if status == 401, request.authentication != nil { return }
        if status == 407, request.proxy.credentials != nil { return }
        var response = partialResponse()
        response.headers = CurlResponseHeadRecorder.headers(in: head.bytes)
        // A redirect goes on to another hop (followed by the pipeline, or handed to a handler
        // that may follow it): only its last hop's body is the stream.
        if RedirectPolicy.follows(status), response.headers["Location"] != nil {
            if case .none = request.redirectPolicy {} else { return }
        }
        // A custom acceptance is caller code, which never runs on this thread: the decision
        // here takes 2xx, and the closure still validates the response at the end.
        guard stream.acceptance.acceptsOnTransportThread(status) else { return }
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
