import Foundation

/// A download as both front ends start it, written once: the file the engine writes (a
/// hidden temporary file, or the destination itself when resuming), the ``DownloadOptions``
/// to put on the request, the plan that moves the file into place, and the clean-up of a
/// failed download's temporary file.
package struct DownloadPlan: Sendable {
    /// What to set as the request's ``HTTPRequest/download``.
    package let options: DownloadOptions
    /// Validates the status and delivers where the file ended up.
    package let plan: ResponsePlan<URL>

    /// A download to `destination`: through a hidden temporary file beside it, moved into
    /// place on success (replacing what is there), or — with `resumesPartialFile` — straight
    /// into `destination`, so a later call can continue it.
    ///
    /// - Parameters:
    ///   - destination: the file to write; standardized.
    ///   - resumesPartialFile: see ``DownloadOptions/resumesPartialFile``.
    ///   - maximumSize: see ``DownloadOptions/maximumSize``.
    ///   - validateStatus: the front end's status rule; throws the status error.
    package init(to destination: URL, resumesPartialFile: Bool, maximumSize: Int64?,
                 validateStatus: @escaping @Sendable (HTTPResponse) throws(NetworkError) -> Void) {
        let target = destination.standardizedFileURL
        let written = resumesPartialFile ? target : ResponsePlan<URL>.temporaryFile(beside: target)
        options = DownloadOptions(destination: written, resumesPartialFile: resumesPartialFile, maximumSize: maximumSize)
        plan = .download(writtenTo: written, movesIntoPlace: !resumesPartialFile, validateStatus: validateStatus,
                         finalURL: { _, _ in target })
    }

    /// A download whose destination is chosen once the response is known: written to a
    /// temporary file in the system's temporary directory, then moved to what `finalURL`
    /// answers for it and the response.
    package init(validateStatus: @escaping @Sendable (HTTPResponse) throws(NetworkError) -> Void,
                 finalURL: @escaping @Sendable (_ temporary: URL, HTTPResponse) -> URL) {
        let temporary = FileManager.default.temporaryDirectory
            .appendingPathComponent("chain-\(UUID().uuidString).download")
        options = DownloadOptions(destination: temporary)
        plan = .download(writtenTo: temporary, movesIntoPlace: true, validateStatus: validateStatus, finalURL: finalURL)
    }

    /// Removes the temporary file of a failed download (a resumed download keeps its partial
    /// file for the next attempt). Call with every final delivery, before handing it on.
    package func cleanUp(after delivery: Delivery<URL>) {
        guard !options.resumesPartialFile, case .failure = delivery.result else { return }
        try? FileManager.default.removeItem(at: options.destination)
    }
}
