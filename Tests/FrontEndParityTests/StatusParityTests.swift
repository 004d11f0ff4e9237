import AFStyle
import Chain
import Foundation
import SampleServer
import Testing
import TestSupport

/// Every spelling of status acceptance — Chain's `validate`, AFStyle's `acceptableStatusCodes`,
/// `ResponsePlan.response(acceptableStatusCodes:)` — passes and refuses the same statuses with
/// the same error.
@Suite("Front-end parity: status acceptance", .timeLimit(.minutes(2)))
struct StatusParityTests {
    private func afError(_ manager: HTTPSessionManager, _ path: String) async -> NetworkError? {
        await withCheckedContinuation { continuation in
            manager.GET(path, success: { _, _ in continuation.resume(returning: nil) },
                        failure: { _, error in continuation.resume(returning: error) })
        }
    }

    private func coreError(_ url: URL, accepting codes: Range<Int>) async -> NetworkError? {
        await withCheckedContinuation { continuation in
            HTTPClient.shared.perform(HTTPRequest(url: url), plan: .response(acceptableStatusCodes: codes)) {
                continuation.resume(returning: $0.result.failure)
            }
        }
    }

    @Test func everySpellingRefusesAlike() async throws {
        let server = try SampleServer(port: 0)
        defer { server.stop() }
        let manager = HTTPSessionManager(baseURL: server.baseURL)
        manager.responseSerializer = .data
        for (path, accepted) in [("status/404", 200..<300), ("status/201", 202..<300), ("status/404", 200..<500)] {
            let url = server.baseURL.appendingPathComponent(path)
            let chain: NetworkError?
            do {
                _ = try await Request.url(url).validate(statusCodes: accepted).data()
                chain = nil
            } catch {
                chain = error
            }
            manager.responseSerializer.acceptableStatusCodes = IndexSet(integersIn: accepted)
            let af = await afError(manager, path)
            let core = await coreError(url, accepting: accepted)
            #expect(chain?.kind == af?.kind && chain?.kind == core?.kind, "\(path) in \(accepted)")
            #expect(chain?.message == af?.message && chain?.message == core?.message, "\(path) in \(accepted)")
            #expect(chain?.response?.statusCode == af?.response?.statusCode, "\(path) in \(accepted)")
            let status = Int(path.dropFirst("status/".count)) ?? 0
            #expect(chain?.kind == (accepted.contains(status) ? nil : .unacceptableStatus(status)))
        }
    }
}
