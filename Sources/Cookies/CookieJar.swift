import Dispatch
import Foundation
import HTTPCore
import Synchronization

/// An RFC 6265 cookie jar: stores the cookies of `Set-Cookie` fields and gives each request
/// the `Cookie` field that matches it. Both front ends use ``shared`` unless told otherwise.
///
/// By default a jar lives in memory. A file-backed jar (``init(fileURL:persistsSessionCookies:)``)
/// loads its file once and writes it back after each change, coalesced on a background queue;
/// ``flush()`` writes synchronously. Session cookies are kept in memory only, unless asked.
///
/// The rules are RFC 6265's, with RFC 6265bis where it is stricter: Secure cookies only from
/// and to `https`, `__Secure-` and `__Host-` prefixes, no overwriting a Secure cookie from
/// `http`, public suffixes refused (libpsl), lifetimes capped at 400 days, 50 cookies per domain
/// and 3000 in all. `SameSite` and `HttpOnly` are recorded but restrict nothing: they guard
/// a browser's scripts and cross-site navigations, which a client does not have.
///
/// A jar with no cookies answers ``cookieHeader(for:)`` from one atomic load, without a lock
/// or URL parsing, since the pipeline asks it for every request.
public final class CookieJar: CookieStorage, Sendable {
    struct State {
        var store = CookieStore()
        /// Changes made, and how many of them the file holds.
        var generation: UInt64 = 0
        var savedGeneration: UInt64 = 0
        /// A save is queued and has not yet taken its snapshot.
        var saveScheduled = false
        var lastSaveError: CookieJarError?
    }

    /// The process's jar, in memory; both front ends use it by default.
    public static let shared = CookieJar()

    /// Why the file could not be loaded, if it could not (the jar then started empty and its
    /// next save replaces the file); `nil` when it loaded, did not exist, or the jar has no file.
    public let loadError: CookieJarError?

    let state: Mutex<State>
    /// The number of cookies stored, read before anything else by every lookup.
    let cookieCount = Atomic<Int>(0)
    let clock: @Sendable () -> Date
    let fileURL: URL?
    let persistsSessionCookies: Bool
    /// The one serial queue the file is written on, so at most one write is in flight.
    let saveQueue: DispatchQueue

    /// A jar in memory, empty.
    public convenience init() {
        self.init(fileURL: nil, clock: { Date() })
    }

    /// A jar backed by the file at `fileURL`, loaded now if it exists. Expired cookies are
    /// dropped, and session cookies are neither loaded nor written unless
    /// `persistsSessionCookies` (default `false`). A file that cannot be read does not make
    /// this fail: the jar starts empty and ``loadError`` says why. The directory must exist.
    public convenience init(fileURL: URL, persistsSessionCookies: Bool = false) {
        self.init(fileURL: fileURL, persistsSessionCookies: persistsSessionCookies, clock: { Date() })
    }

    /// A jar whose notion of "now" is `clock` (for tests), in memory unless `fileURL` is given;
    /// `persistsSessionCookies` defaults to `false`.
    package init(fileURL: URL? = nil, persistsSessionCookies: Bool = false, clock: @escaping @Sendable () -> Date) {
        self.clock = clock
        self.fileURL = fileURL
        self.persistsSessionCookies = persistsSessionCookies
        self.saveQueue = DispatchQueue(label: "chain.cookies.save", qos: .utility)
        let (store, loadError) = CookieJar.load(fileURL, persistsSessionCookies: persistsSessionCookies, now: clock())
        self.loadError = loadError
        self.state = Mutex(State(store: store))
        cookieCount.store(store.count, ordering: .releasing)
    }

    // MARK: - Sending

    /// The cookies a request to `url` would carry, in sending order (longer paths first,
    /// then earlier creation); empty for a URL that is not `http(s)` or `ws(s)` with a host.
    /// Marks them as used, which decides what the limits evict first.
    public func cookies(for url: URL) -> [Cookie] {
        guard cookieCount.load(ordering: .acquiring) > 0, let target = RequestTarget(url: url) else { return [] }
        let now = clock()
        return state.withLock { state in
            let found = state.store.cookies(for: target, now: now)
            cookieCount.store(state.store.count, ordering: .releasing)
            return found
        }
    }

    /// The `Cookie` field for a request to `url`, `"a=1; b=2"` in sending order, or `nil`
    /// when no cookie matches.
    public func cookieHeader(for url: URL) -> String? {
        guard cookieCount.load(ordering: .acquiring) > 0 else { return nil }
        let found = cookies(for: url)
        guard !found.isEmpty else { return nil }
        return found.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    /// Every cookie that has not expired, by domain and then in sending order.
    public var allCookies: [Cookie] {
        guard cookieCount.load(ordering: .acquiring) > 0 else { return [] }
        let now = clock()
        return state.withLock { state in
            let all = state.store.allCookies(now: now)
            cookieCount.store(state.store.count, ordering: .releasing)
            return all
        }
    }

    // MARK: - Storing

    /// Stores the cookies of a response from `url`, given as its `Set-Cookie` field values in
    /// the order they came; the same as ``setCookies(fromSetCookie:for:)``.
    public func storeCookies(fromSetCookie values: [String], for url: URL) {
        setCookies(fromSetCookie: values, for: url)
    }

    /// Stores the cookies of a response from `url`, given as its `Set-Cookie` field values in
    /// the order they came. A field RFC 6265 (or 6265bis, where stricter) says to ignore is
    /// ignored; an already expired cookie removes the one it names.
    public func setCookies(fromSetCookie values: [String], for url: URL) {
        guard !values.isEmpty, let target = RequestTarget(url: url) else { return }
        let now = clock()
        let suffixes = PublicSuffixList.shared
        // Parsed outside the lock: only the store's own checks need it.
        let cookies = values.compactMap { SetCookie(parsing: $0)?.cookie(from: target, now: now, suffixes: suffixes) }
        guard !cookies.isEmpty else { return }
        update { store in
            var changed = false
            for cookie in cookies where store.store(cookie, now: now, fromInsecureOrigin: !target.isSecure) {
                changed = true
            }
            return changed
        }
    }

    /// Stores `cookie` as given, replacing the one with the same name, domain and path (whose
    /// creation date it keeps; otherwise the jar's current time is its creation date). A path
    /// that does not start with `/` becomes `/`. Returns `false`, storing nothing, for a cookie
    /// that could not be sent as it is (an empty name, `=` in the name, `;` or a control
    /// character, more than 4096 bytes), an empty domain, or a non-host-only cookie on a public
    /// suffix. An expired cookie removes the one it names and is not stored.
    @discardableResult
    public func setCookie(_ cookie: Cookie) -> Bool {
        var cookie = cookie
        cookie.domain = Cookie.normalizedDomain(cookie.domain)
        if cookie.path.utf8.first != UInt8(ascii: "/") { cookie.path = "/" }
        guard Cookie.isAcceptable(name: cookie.name, value: cookie.value), !cookie.domain.isEmpty,
              !cookie.path.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: ";") }),
              cookie.isHostOnly || !PublicSuffixList.shared.isPublicSuffix(cookie.domain) else { return false }
        let now = clock()
        cookie.creationDate = now
        update { store in store.store(cookie, now: now) }
        return true
    }

    /// Removes the cookie with this name, domain (a leading dot is ignored) and path (default `/`).
    public func remove(name: String, domain: String, path: String = "/") {
        let domain = Cookie.normalizedDomain(domain)
        update { store in store.remove(name: name, domain: domain, path: path) }
    }

    /// Removes every cookie.
    public func removeAll() {
        update { store in
            guard store.count > 0 else { return false }
            store.removeAll()
            return true
        }
    }

    /// Runs `body` on the store under the lock; when it reports a change, a file-backed jar
    /// queues a save unless one is queued already (it will take the latest snapshot).
    private func update(_ body: (inout CookieStore) -> Bool) {
        let scheduleSave = state.withLock { state -> Bool in
            let changed = body(&state.store)
            cookieCount.store(state.store.count, ordering: .releasing)
            guard changed else { return false }
            state.generation += 1
            guard fileURL != nil, !state.saveScheduled else { return false }
            state.saveScheduled = true
            return true
        }
        if scheduleSave {
            // A failure is kept in `lastSaveError`, and the next change or `flush()` retries.
            saveQueue.async { [self] in _ = try? savePending() }
        }
    }
}
