@testable import Cookies
import Foundation
import Synchronization
@_exported import TestSupport
import Testing

/// A clock the test moves by hand; starts at 2026-01-01T00:00:00Z.
final class ManualClock: Sendable {
    private let current = Mutex(Date(timeIntervalSince1970: 1_767_225_600))

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// The closure a jar takes.
    var reading: @Sendable () -> Date { { [self] in now } }
}

/// A URL the test wrote literally.
func url(_ string: String) throws -> URL {
    try #require(URL(string: string))
}

extension CookieJar {
    /// Stores one `Set-Cookie` field received from `address`.
    func receive(_ field: String, from address: String) throws {
        setCookies(fromSetCookie: [field], for: try url(address))
    }

    /// The `Cookie` field for `address`.
    func header(_ address: String) throws -> String? {
        cookieHeader(for: try url(address))
    }

    /// The one cookie named `name`, if exactly one is stored.
    func only(_ name: String) -> Cookie? {
        let found = allCookies.filter { $0.name == name }
        return found.count == 1 ? found.first : nil
    }
}

/// A fresh directory, removed when `body` returns.
func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
    let directory = try temporaryDirectory("cookies")
    defer { try? FileManager.default.removeItem(at: directory) }
    return try body(directory)
}
