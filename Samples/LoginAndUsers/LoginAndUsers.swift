// login-and-users — log in, fetch a user, query users and read a typed error body, written
// once with Moya-style targets and once with the builder, with the logger hook on.
//
// Like a script, `main` is synchronous: it first makes one blocking call on the main thread
// (`blockingValue`), then runs the async sample (see Samples/Demo/Demo.swift for the why).
import Foundation
import SampleScenarios

@main
struct LoginAndUsers {
    static func main() {
        let output = SampleOutput.standardOutput
        let server: SampleServer
        do {
            server = try SampleServer(port: 0)
        } catch {
            output.say("could not start the sample server: \(error)")
            exit(1)
        }
        output.say("Sample server on \(server.baseURL.absoluteString)")
        do {
            try LoginAndUsersSample.runBlocking(baseURL: server.baseURL, output: output)
        } catch {
            output.say("FAILED: the blocking call: \(error)")
            exit(1)
        }

        SampleRunner.finishAsynchronously {
            let failed = await SampleRunner.run([.loginAndUsers], baseURL: server.baseURL, output: output)
            server.stop()
            return SampleRunner.summary(failed, total: 1, output: output)
        }
    }
}
