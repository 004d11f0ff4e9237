import CCurl
import Dispatch
import HTTPCore

// The progress callback (loop thread): the idle clock and the throttled progress reports.

extension CurlTransfer {
    func didProgress(dlTotal: curl_off_t, dlNow: curl_off_t, ulTotal: curl_off_t, ulNow: curl_off_t) -> Int32 {
        // A cancel is not acted on here but by the engine's cancel command, so that it takes
        // effect in the order it was given: aborting here, in the `perform` before the loop
        // drains its commands, freed a per-host slot ahead of requests sent before the cancel.
        // libcurl calls this on every pass of its loop (at least once a second, the loop's
        // longest wait with transfers in flight); read the clock only for the idle timeout or
        // when a count grew.
        let download = Int64(dlNow), upload = Int64(ulNow)
        let grew = download > (lastDownloadReport?.bytes ?? 0) || upload > (lastUploadReport?.bytes ?? 0)
        guard idleSince > 0 || (grew && progressHandler != nil) else { return 0 }
        let now = DispatchTime.now().uptimeNanoseconds
        if idleSince > 0, hasBeenIdle(download: download, upload: upload, at: now) {
            isIdleTimedOut = true
            return 1  // libcurl closes the connection; `result(for:)` reports the idle timeout
        }
        guard grew, progressHandler != nil else { return 0 }
        if let progress = report(.download, now: download, total: Int64(dlTotal), at: now, force: false) {
            send(progress)
        }
        if let progress = report(.upload, now: upload, total: Int64(ulTotal), at: now, force: false) {
            send(progress)
        }
        return 0
    }

    /// Whether no byte moved for longer than the idle timeout: the clock starts when a request is
    /// about to be sent (`willSendRequest`), and any byte of a response head, a body or an
    /// upload restarts it (the head's bytes as the header callback counted them).
    private func hasBeenIdle(download: Int64, upload: Int64, at now: UInt64) -> Bool {
        let head = headBytes
        // A transfer paused for its stream waits for the consumer (or the producer), not for
        // the peer: the clock starts again when it resumes.
        guard !isReceivePaused, !isSendPaused, download == idleCounts.download, upload == idleCounts.upload, head == idleCounts.head else {
            idleCounts = (download, upload, head)
            idleSince = now
            return false
        }
        return now &- idleSince > idleLimit
    }

    /// The report to send when the count grew and 50 ms have passed since the last one — or
    /// since the start, for the first — (or `force`), recorded as sent; `nil` when there is
    /// nothing to send.
    func report(_ direction: TransferProgress.Direction, now bytes: Int64, total: Int64, at time: UInt64,
                        force: Bool) -> TransferProgress? {
        guard progressHandler != nil else { return nil }
        let last = direction == .download ? lastDownloadReport : lastUploadReport
        if let last, bytes <= last.bytes { return nil }
        if !force, bytes == 0 { return nil }
        if !force, time &- (last?.time ?? progressStart) < 50_000_000 { return nil }
        if direction == .download { lastDownloadReport = (bytes, time) } else { lastUploadReport = (bytes, time) }
        return TransferProgress(direction: direction, completedBytes: bytes, totalBytes: total > 0 ? total : nil)
    }

    private func send(_ progress: TransferProgress) {
        guard let progressHandler else { return }
        callbackQueue.async { progressHandler(progress) }
    }
}
