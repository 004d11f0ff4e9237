import Foundation

/// Runs samples against the bundled sample server and turns the outcome into an exit code.
public enum SampleRunner {
    /// Runs `scenarios` in order against the server at `baseURL`, each under a header, and
    /// returns the names of those that failed (a failure does not stop the others).
    public static func run(_ scenarios: [Scenario], baseURL: URL, output: SampleOutput) async -> [String] {
        var failed: [String] = []
        for (index, scenario) in scenarios.enumerated() {
            output.say("")
            output.say("=== \(index + 1)/\(scenarios.count) \(scenario.name): \(scenario.title)")
            do {
                try await scenario.run(baseURL: baseURL, output: output)
                output.say("--- \(scenario.name): OK")
            } catch {
                output.say("--- \(scenario.name): FAILED: \(error)")
                failed.append(scenario.name)
            }
        }
        return failed
    }

    /// Starts a sample server on a free loopback port, runs `scenarios` against it, stops it,
    /// and returns the process's exit code: 0 when all passed, 1 otherwise.
    public static func runWithOwnServer(_ scenarios: [Scenario], output: SampleOutput = .standardOutput) async -> Int32 {
        let server: SampleServer
        do {
            server = try SampleServer(port: 0)
        } catch {
            output.say("could not start the sample server: \(error)")
            return 1
        }
        defer { server.stop() }
        output.say("Sample server on \(server.baseURL.absoluteString)")
        return summary(await run(scenarios, baseURL: server.baseURL, output: output), total: scenarios.count, output: output)
    }

    /// Prints the closing line and returns the exit code for `failed`.
    public static func summary(_ failed: [String], total: Int, output: SampleOutput) -> Int32 {
        output.say("")
        if failed.isEmpty {
            output.say(total == 1 ? "The sample ran as expected." : "All \(total) samples ran as expected.")
            return 0
        }
        output.say("FAILED: \(failed.joined(separator: ", ")) (\(failed.count) of \(total))")
        return 1
    }

    /// Runs async work from a *synchronous* `main` and exits with the code it returns.
    ///
    /// The work runs on Swift's concurrency pool; the main thread parks in `dispatchMain()`,
    /// which serves the main queue. So anything the work sends to the main queue (a callback
    /// with `.queue(.main)`, `@MainActor` code) still runs. Waiting for the work on a
    /// semaphore instead would block the main queue: such a callback would never run.
    public static func finishAsynchronously(_ work: @escaping @Sendable () async -> Int32) -> Never {
        Task.detached {
            exit(await work())
        }
        dispatchMain()
    }
}
