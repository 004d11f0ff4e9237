// bench-decode: Foundation's JSONDecoder against FastJSONDecoder on the two
// payloads of issue 9 — a ~100 KB array of users and a ~300-byte
// {errcode, errmsg, data} envelope — in the same process, interleaved, so
// both see the same machine state. Prints a table, or JSON with --json.
//
//   swift run -c release bench-decode [--json] [--rounds N] [--profile fast|foundation [--iterations N]]

import FastJSON
import Foundation

struct Address: Codable, Equatable {
    var street: String
    var city: String
    var zip: String
    var country: String
}

struct User: Codable, Equatable {
    var id: Int
    var name: String
    var email: String
    var age: Int
    var isActive: Bool
    var score: Double
    var tags: [String]
    var address: Address
    var createdAt: String
    var bio: String?
}

struct Envelope<Payload: Codable & Equatable>: Codable, Equatable {
    var errcode: Int
    var errmsg: String
    var data: Payload
}

/// A deterministic user, so every run decodes the same bytes.
func makeUser(_ i: Int) -> User {
    User(
        id: 100_000 + i,
        name: "User Number \(i)",
        email: "user\(i)@example.com",
        age: 18 + i % 60,
        isActive: i % 3 != 0,
        score: Double(i) * 1.37 + 0.25,
        tags: ["tag\(i % 7)", "group\(i % 13)", "x"],
        address: Address(street: "\(i) Main Street", city: "Springfield", zip: "\(10_000 + i)", country: "US"),
        createdAt: "2024-01-\(i % 28 + 10)T12:34:56Z",
        bio: i.isMultiple(of: 2) ? nil : "Hello, I am user \(i).")
}

func usersDocument(targetBytes: Int) throws -> Data {
    let encoder = JSONEncoder()
    var users: [User] = []
    // One user encodes to roughly 280 bytes; grow until the target is reached.
    while true {
        users.append(makeUser(users.count))
        if users.count % 16 == 0, try encoder.encode(users).count >= targetBytes { break }
    }
    return try encoder.encode(users)
}

struct Case {
    let name: String
    let bytes: Int
    let foundation: () throws -> Void
    let fast: () throws -> Void
}

struct Result: Codable {
    let name: String
    let bytes: Int
    let foundationOpsPerSecond: Double
    let fastOpsPerSecond: Double
    let ratio: Double
}

/// CPU time of this thread in nanoseconds: unlike wall time it does not
/// count the moments the scheduler gives the core to other processes, which
/// on a busy machine would swamp the difference being measured.
func now() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// Seconds of CPU time per operation of `body`, over `iterations` runs.
func time(iterations: Int, _ body: () throws -> Void) rethrows -> Double {
    let start = now()
    for _ in 0..<iterations { try body() }
    return Double(now() - start) / 1e9 / Double(iterations)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count.isMultiple(of: 2)
        ? (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2 : sorted[sorted.count / 2]
}

func measure(_ benchCase: Case, rounds: Int) throws -> Result {
    // Calibrate so one batch of the slower decoder takes about 20 ms.
    let single = try time(iterations: 3, benchCase.foundation)
    let iterations = max(1, Int(0.02 / max(single, 1e-9)))
    try benchCase.fast()
    var foundationTimes: [Double] = []
    var fastTimes: [Double] = []
    for round in 0..<rounds {
        // Alternate which goes first so neither always gets the warmer cache.
        if round.isMultiple(of: 2) {
            foundationTimes.append(try time(iterations: iterations, benchCase.foundation))
            fastTimes.append(try time(iterations: iterations, benchCase.fast))
        } else {
            fastTimes.append(try time(iterations: iterations, benchCase.fast))
            foundationTimes.append(try time(iterations: iterations, benchCase.foundation))
        }
    }
    let foundation = 1 / median(foundationTimes)
    let fast = 1 / median(fastTimes)
    return Result(name: benchCase.name, bytes: benchCase.bytes, foundationOpsPerSecond: foundation, fastOpsPerSecond: fast, ratio: fast / foundation)
}

func run() throws {
    let arguments = CommandLine.arguments.dropFirst()
    let json = arguments.contains("--json")
    var rounds = 15
    if let flag = arguments.firstIndex(of: "--rounds"), arguments.index(after: flag) < arguments.endIndex,
       let value = Int(arguments[arguments.index(after: flag)]), value > 0 {
        rounds = value
    }

    let usersData = try usersDocument(targetBytes: 100_000)
    let envelopeData = try JSONEncoder().encode(Envelope(errcode: 0, errmsg: "ok", data: makeUser(7)))
    let foundationDecoder = JSONDecoder()
    let fastDecoder = FastJSONDecoder()

    // Both decoders must agree before their speed means anything.
    let expectedUsers = try foundationDecoder.decode([User].self, from: usersData)
    guard try fastDecoder.decode([User].self, from: usersData) == expectedUsers,
          try fastDecoder.decode(Envelope<User>.self, from: envelopeData)
            == foundationDecoder.decode(Envelope<User>.self, from: envelopeData),
          try fastDecoder.decode(User.self, from: envelopeData, atKeyPath: "data") == makeUser(7)
    else {
        throw CocoaError(.coderReadCorrupt, userInfo: [NSDebugDescriptionErrorKey: "decoders disagree"])
    }

    let cases = [
        Case(name: "[User] \(expectedUsers.count) users", bytes: usersData.count,
             foundation: { _ = try foundationDecoder.decode([User].self, from: usersData) },
             fast: { _ = try fastDecoder.decode([User].self, from: usersData) }),
        Case(name: "Envelope<User>", bytes: envelopeData.count,
             foundation: { _ = try foundationDecoder.decode(Envelope<User>.self, from: envelopeData) },
             fast: { _ = try fastDecoder.decode(Envelope<User>.self, from: envelopeData) }),
        Case(name: "User at key path \"data\"", bytes: envelopeData.count,
             foundation: { _ = try foundationDecoder.decode(Envelope<User>.self, from: envelopeData).data },
             fast: { _ = try fastDecoder.decode(User.self, from: envelopeData, atKeyPath: "data") }),
    ]
    // `--profile fast|foundation` decodes the [User] case with one decoder only, for
    // `perf record` or callgrind (two `--iterations` counts, subtracted, leave the
    // set-up out): the other decoder's samples would only be noise there.
    if let flag = arguments.firstIndex(of: "--profile"), arguments.index(after: flag) < arguments.endIndex {
        let which = arguments[arguments.index(after: flag)]
        let body = which == "foundation" ? cases[0].foundation : cases[0].fast
        var iterations = which == "foundation" ? 500 : 2_000
        if let flag = arguments.firstIndex(of: "--iterations"), arguments.index(after: flag) < arguments.endIndex,
           let value = Int(arguments[arguments.index(after: flag)]), value > 0 {
            iterations = value
        }
        let seconds = try time(iterations: iterations, body)
        print("\(which): \(iterations) decodes of \(usersData.count) bytes, \(Int(1 / seconds)) ops/s, "
            + "\(Int(Double(usersData.count) / seconds / 1e6)) MB/s")
        return
    }
    let results = try cases.map { try measure($0, rounds: rounds) }

    if json {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        print(String(decoding: try encoder.encode(results), as: UTF8.self))
        return
    }
    func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
    func number(_ value: Double, _ decimals: Int) -> String { String(format: "%.\(decimals)f", value) }
    print(pad("case", 28) + pad("bytes", 9) + pad("Foundation ops/s", 18) + pad("FastJSON ops/s", 16) + "ratio")
    for result in results {
        print(pad(result.name, 28) + pad("\(result.bytes)", 9)
            + pad(number(result.foundationOpsPerSecond, 0), 18) + pad(number(result.fastOpsPerSecond, 0), 16)
            + number(result.ratio, 2) + "x")
    }
    print("thread CPU time, median of \(rounds) interleaved rounds; ratio = FastJSON / Foundation (higher is better)")
}

do {
    try run()
} catch {
    FileHandle.standardError.write(Data("bench-decode: \(error)\n".utf8))
    exit(1)
}
