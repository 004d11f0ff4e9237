// demo — runs every sample in order against one sample server on 127.0.0.1, and exits 0 when
// all of them got the answers they expect, 1 (naming the failed ones) otherwise.
//
// `main` is synchronous on purpose. A command-line script often is, and that is where Chain's
// blocking forms belong; the first call below shows `blockingValue` returning on the process's
// real main thread, even with its delivery asked on the main queue. (In an `async` main the
// blocking forms are unavailable.) The samples themselves are async: they are handed to Swift
// concurrency, and the main thread parks in `dispatchMain()` — see
// `SampleRunner.finishAsynchronously` for why it must not just wait on a semaphore.
import Foundation
import SampleScenarios

@main
struct Demo {
    static func main() {
        let output = SampleOutput.standardOutput
        let server: SampleServer
        do {
            server = try SampleServer(port: 0)
        } catch {
            output.say("demo: could not start the sample server: \(error)")
            exit(1)
        }
        output.say("Sample server on \(server.baseURL.absoluteString)")

        output.say("")
        output.say("=== 0 blocking: a script-style call on the main thread")
        do {
            try LoginAndUsersSample.runBlocking(baseURL: server.baseURL, output: output)
        } catch {
            output.say("FAILED: the blocking call: \(error)")
            exit(1)
        }

        SampleRunner.finishAsynchronously {
            let failed = await SampleRunner.run(Scenario.all, baseURL: server.baseURL, output: output)
            server.stop()
            return SampleRunner.summary(failed, total: Scenario.all.count, output: output)
        }
    }
}
