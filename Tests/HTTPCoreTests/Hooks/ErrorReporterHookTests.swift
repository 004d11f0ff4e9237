import CurlTransport
import Foundation
import HTTPCore
import HTTPFeatures
import Testing

@Suite("Hooks: error reporter", .timeLimit(.minutes(1)))
struct ErrorReporterHookTests {
    struct Report: Sendable {
        var message: String
        var kind: NetworkError.Kind
        var id: UInt64
    }

    static func recordingReporter(ignoresCancellation: Bool = true,
                                  filter: (@Sendable (NetworkError, HookContext) -> Bool)? = nil)
        -> (ErrorReporterHook, Recorder<Report>) {
        let reports = Recorder<Report>()
        let hook = ErrorReporterHook(ignoresCancellation: ignoresCancellation, filter: filter) { message, error, context in
            reports.append(Report(message: message, kind: error.kind, id: context.id))
        }
        return (hook, reports)
    }

    @Test func everyFailureIsReportedOnceWithItsOneLineDescription() async throws {
        let (hook, reports) = Self.recordingReporter()
        let notFound = await HTTPClient.shared.delivery(HTTPRequest(url: try TestServer.endpoint("/status/404")), hooks: [hook])
        let error = try #require(notFound.result.failure)
        var slow = HTTPRequest(url: try TestServer.endpoint("/delay/5"))
        slow.timeouts.total = 0.2
        let timedOut = try #require(await HTTPClient.shared.delivery(slow, hooks: [hook]).result.failure)
        #expect(timedOut.kind == .timedOut)

        let values = reports.values
        #expect(values.count == 2)
        #expect(values.first?.message == error.description)
        #expect(values.first?.kind == .unacceptableStatus(404))
        #expect(values.last?.message == timedOut.description)
        #expect(values.allSatisfy { !$0.message.contains("\n") && !$0.message.isEmpty })
    }

    @Test func successesAreNotReported() async throws {
        let (hook, reports) = Self.recordingReporter()
        let ok = await HTTPClient.shared.delivery(HTTPRequest(url: try TestServer.endpoint("/get")), hooks: [hook])
        #expect(ok.result.success?.statusCode == 200)
        #expect(reports.values.isEmpty)
    }

    @Test(arguments: [true, false])
    func cancelsAreIgnoredByDefault(ignoresCancellation: Bool) async throws {
        let (hook, reports) = Self.recordingReporter(ignoresCancellation: ignoresCancellation)
        let cancelled = await HTTPClient.shared.delivery(HTTPRequest(url: try TestServer.endpoint("/delay/5")), hooks: [hook]) { task in
            DispatchQueue.global().async { task.cancel() }
        }
        #expect(cancelled.result.failure?.kind == .cancelled)
        #expect(reports.values.map(\.kind) == (ignoresCancellation ? [] : [.cancelled]))
        #expect(ErrorReporterHook(output: .discard).ignoresCancellation)
    }

    @Test func theFilterChoosesWhatIsReported() async throws {
        let (hook, reports) = Self.recordingReporter { error, _ in error.statusCode != 401 }
        _ = await HTTPClient.shared.delivery(HTTPRequest(url: try TestServer.endpoint("/status/401")), hooks: [hook])
        _ = await HTTPClient.shared.delivery(HTTPRequest(url: try TestServer.endpoint("/status/500")), hooks: [hook])
        #expect(reports.values.map(\.kind) == [.unacceptableStatus(500)])
    }

    @Test func theDefaultWritesOneLineWithSecretsRedacted() async throws {
        let captured = CapturedOutput()
        let hook = ErrorReporterHook(output: captured.output)
        let url = try TestServer.endpoint("/status/503?user=bob&password=hunter2")
        let failure = try #require(await HTTPClient.shared.delivery(HTTPRequest(url: url), hooks: [hook]).result.failure)
        let text = captured.text
        #expect(text.hasPrefix("error: GET http://127.0.0.1:"))
        #expect(text.hasSuffix(" (HTTP 503)\n"))
        #expect(text.filter { $0 == "\n" }.count == 1)
        #expect(text.contains("user=bob&password=***"))
        #expect(!text.contains("hunter2"))
        #expect(failure.description.contains("hunter2"))  // the error itself is untouched
    }
}
