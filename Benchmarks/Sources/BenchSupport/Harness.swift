import Dispatch
import Foundation

/// A benchmark client: one HTTP library driven through the scenarios it implements.
/// Adding a client is a type conforming to this, an executable target whose `main.swift` calls
/// ``BenchMain/run(_:)``, and one entry in `Benchmarks/run`'s client list.
public protocol BenchClient {
    /// The client's name in the results, e.g. `"core"`.
    var name: String { get }
    /// The scenarios this client implements; the others show as "—" in the table.
    var scenarios: [Scenario] { get }
    /// Sets up `scenario` (library objects, a warm-up request to `setup.warmUpURL`) and returns
    /// its timed part, which the harness runs exactly once between two clock readings.
    func prepare(_ scenario: Scenario, _ setup: BenchSetup) throws -> () throws -> BenchResult
}

/// The command line and the result line shared by every Swift client.
///
///     bench-<client> --base-url http://127.0.0.1:PORT --scenario small-seq --count 20000
///                    [--concurrency 32] [--download-dir DIR] [--entries 10000]
///                    [--connections 32] [--ca-file PEM]     # the TLS scenarios
///                    [--memory-mib 128]                     # the cache's memory budget
///     bench-<client> --list        # the scenarios it implements, one a line
///
/// Prints one JSON line on success:
/// `{"client":…, "scenario":…, "requests":N, "seconds":S, "rps":…, "bytes":B, "peak_rss_kib":K, "new_connections":C, "cpu_seconds":T,
/// "baseline_rss_kib":R, "baseline_peak_rss_kib":H}` and `"events":E` for `stream-events`
/// (`cpu_seconds`: the process's CPU time over the timed part only; `baseline_*`: `VmRSS` and
/// `VmHWM` once the scenario is prepared, just before the timed part).
/// Exit status: 0 done, 1 the benchmark failed, 2 bad command line, 3 scenario not implemented.
public enum BenchMain {
    public static func run(_ client: some BenchClient) -> Never {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.contains("--list") {
            for scenario in client.scenarios { print(scenario.rawValue) }
            exit(0)
        }
        let parsed: (Scenario, BenchSetup)
        do {
            parsed = try parse(arguments)
        } catch {
            FileHandle.standardError.write(Data("\(client.name): \(error)\n".utf8))
            exit(2)
        }
        let (scenario, setup) = parsed
        guard client.scenarios.contains(scenario) else {
            FileHandle.standardError.write(Data("\(client.name): scenario \(scenario.rawValue) is not implemented\n".utf8))
            exit(3)
        }
        do {
            let timed = try client.prepare(scenario, setup)
            let baseline = Baseline(rss: statusKiB("VmRSS:"), peak: peakRSSKiB())
            let cpuStart = cpuSeconds()
            let start = DispatchTime.now().uptimeNanoseconds
            let result = try timed()
            let seconds = result.timedSeconds ?? Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            let cpu = result.timedCPUSeconds ?? cpuSeconds() - cpuStart
            result.cleanUp?()
            print(resultLine(client: client.name, scenario: scenario, result: result, seconds: seconds, cpu: cpu,
                             baseline: baseline))
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("\(client.name) \(scenario.rawValue): \(error)\n".utf8))
            exit(1)
        }
    }

    static func parse(_ arguments: [String]) throws -> (Scenario, BenchSetup) {
        var values: [String: String] = [:]
        var index = 0
        while index < arguments.count {
            let key = arguments[index]
            guard key.hasPrefix("--"), index + 1 < arguments.count else {
                throw BenchError("expected --option value, got \(key)")
            }
            values[String(key.dropFirst(2))] = arguments[index + 1]
            index += 2
        }
        guard let base = values["base-url"], let baseURL = URL(string: base), baseURL.host != nil else {
            throw BenchError("--base-url http://127.0.0.1:PORT is required")
        }
        guard let name = values["scenario"], let scenario = Scenario(rawValue: name) else {
            let names = Scenario.allCases.map(\.rawValue).joined(separator: ", ")
            throw BenchError("--scenario is required, one of: \(names)")
        }
        func number(_ key: String, default value: Int) throws -> Int {
            guard let text = values[key] else { return value }
            guard let number = Int(text), number > 0 else { throw BenchError("--\(key) needs a positive integer") }
            return number
        }
        let directory = values["download-dir"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory
        let setup = BenchSetup(baseURL: baseURL, count: try number("count", default: 1000),
                               concurrency: try number("concurrency", default: 32),
                               downloadDirectory: directory, entries: try number("entries", default: 100),
                               connections: try number("connections", default: 32),
                               caFile: values["ca-file"].map { URL(fileURLWithPath: $0) },
                               memoryBudget: values["memory-mib"] == nil ? nil : try number("memory-mib", default: 4) << 20)
        if scenario.isTLS {
            guard setup.baseURL.scheme == "https", setup.caFile != nil else {
                throw BenchError("--scenario \(scenario.rawValue) needs an https --base-url and --ca-file")
            }
        }
        return (scenario, setup)
    }

    /// The process's memory just before the timed part, in KiB (`nil` where there is no procfs).
    struct Baseline {
        var rss: Int?
        var peak: Int?
    }

    static func resultLine(client: String, scenario: Scenario, result: BenchResult, seconds: Double, cpu: Double,
                           baseline: Baseline) -> String {
        let rps = seconds > 0 ? Double(result.requests) / seconds : 0
        let rss = peakRSSKiB().map(String.init) ?? "null"
        let connections = result.newConnections.map(String.init) ?? "null"
        let events = result.events.map { ",\"events\":\($0)" } ?? ""
        // Hand-written: the names are fixed ASCII, so no escaping is needed, and it keeps
        // JSONEncoder's key order and number formatting out of the way.
        return "{\"client\":\"\(client)\",\"scenario\":\"\(scenario.rawValue)\",\"requests\":\(result.requests),"
            + "\"seconds\":\(String(format: "%.6f", seconds)),\"rps\":\(String(format: "%.1f", rps)),"
            + "\"bytes\":\(result.bytes),\"peak_rss_kib\":\(rss),\"new_connections\":\(connections),"
            + "\"cpu_seconds\":\(String(format: "%.6f", cpu)),"
            + "\"baseline_rss_kib\":\(baseline.rss.map(String.init) ?? "null"),"
            + "\"baseline_peak_rss_kib\":\(baseline.peak.map(String.init) ?? "null")\(events)}"
    }
}

/// The process's peak resident set size (`VmHWM` in `/proc/self/status`), in KiB; `nil` where
/// there is no procfs.
public func peakRSSKiB() -> Int? {
    statusKiB("VmHWM:")
}

/// A line of `/proc/self/status` in KiB, e.g. `"VmRSS:"` (the resident set now); `nil` where
/// there is no procfs or no such line.
public func statusKiB(_ key: String) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix(key) {
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }
    return nil
}

/// CPU time (user + system, all threads) of this process so far, in seconds: the timed part's
/// cost per request, whatever the wall clock says about waiting.
public func cpuSeconds() -> Double {
    var usage = rusage()
    #if os(Linux)
    let who = RUSAGE_SELF.rawValue  // an enum in Glibc's headers, a plain constant elsewhere
    #else
    let who = RUSAGE_SELF
    #endif
    guard getrusage(who, &usage) == 0 else { return 0 }
    let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
    let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    return user + system
}

/// Size of a file, or `nil` when it cannot be read.
public func fileSize(_ url: URL) -> Int? {
    (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int
}
