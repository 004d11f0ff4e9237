import Dispatch
import HTTPCore
import SampleServer
@_exported import TestSupport

/// Sends `count` requests to `server`'s `/anything/<n>`, each from the completion of the one
/// before, and returns their statuses in order (-1 for a failure).
func sendChained(_ count: Int, with client: HTTPClient, to server: SampleServer,
                 queue: DispatchQueue? = nil) async -> [Int] {
    let statuses = Recorder<Int>()
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        @Sendable func send(_ index: Int) {
            guard index < count else {
                done.resume()
                return
            }
            let url = server.baseURL.appendingPathComponent("anything/\(index)")
            client.send(HTTPRequest(url: url), queue: queue) { result in
                statuses.append((try? result.get().statusCode) ?? -1)
                send(index + 1)
            }
        }
        send(0)
    }
    return statuses.values
}
