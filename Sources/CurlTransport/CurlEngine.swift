import CCurl
import Foundation
import HTTPCore
import Synchronization

/// The transport: one loop thread that owns one libcurl multi handle.
///
/// libcurl's rule is that a handle is used by one thread at a time; we make it one thread,
/// period. Every `curl_*` call on the multi handle, the share handle and every easy handle
/// happens on the loop thread. Other threads only append a command under `commands`' lock
/// and call `curl_multi_wakeup`, which libcurl documents as callable from any thread.
///
/// The loop: drain commands → `curl_multi_perform` → `curl_multi_info_read` until empty →
/// `curl_multi_poll`. Connections, DNS results and TLS sessions live in the multi and share
/// handles, so a second request to the same host reuses the first one's connection.
final class CurlEngine: @unchecked Sendable {
    // Why @unchecked Sendable: `multi` and `share` are created in `init` and afterwards used
    // only on the loop thread (plus `curl_multi_wakeup`, which is thread-safe by contract);
    // `defaultHeaders` is built in `init` and only read afterwards, on the loop thread;
    // `activeCount` and `easyPool` are loop-thread only; `commands` is a Mutex.

    /// Limits for the multi handle.
    struct Limits: Sendable {
        var connectionsPerHost: Int
        var concurrentRequestsPerHost: Int
        var totalConnections: Int
        var cachedConnections: Int
    }

    /// Where connections go, for every transfer of the engine.
    struct Routing: Sendable {
        /// Host names answered without DNS.
        var dnsOverrides: [DNSOverride] = []
        /// The HSTS store's file; `nil`: no HSTS.
        var hstsFile: URL?
    }

    private enum Command {
        case add(CurlTransfer)
        case cancel(CurlTransfer)
        case resume(CurlTransfer)
    }

    private struct Commands {
        var pending: [Command] = []
        var isShuttingDown = false
    }

    private let multi: UnsafeMutableRawPointer
    private let share: UnsafeMutableRawPointer?
    /// The `CURLOPT_RESOLVE` lines of ``Routing/dnsOverrides``, set on every handle's baseline.
    private let resolveList: UnsafeMutablePointer<curl_slist>?
    /// The HSTS store, when the configuration names a file (its entries live in `share`).
    private let hsts: CurlHSTSStore?
    private let commands = Mutex(Commands())
    /// Commands appended but not yet drained, and whether the loop is (about to be) blocked
    /// in `curl_multi_poll`. Together they let `enqueue` skip the wakeup syscall while the
    /// loop is awake anyway: the loop publishes `isWaiting` before its last look at
    /// `pendingCommands`, the enqueuer publishes `pendingCommands` before reading `isWaiting`,
    /// and with sequentially consistent ordering at least one of them sees the other.
    private let pendingCommands = Atomic<Int>(0)
    private let isWaiting = Atomic<Bool>(false)
    // `@exclusivity(unchecked)` on the loop-thread state below: one thread, no overlapping
    // accesses, and the dynamic checks ran several times per request (see CurlTransfer).
    /// Transfers in the multi handle. Wherever the loop looks (`stop`), a transfer is in it
    /// exactly while it has an easy handle: `launch` sets the handle in `configure` and adds it
    /// at once, and a failure there clears it again in `cleanUp`. The transfer's own retain
    /// keeps it alive meanwhile, so a count is all the loop needs; a dictionary of them cost
    /// two hashed updates per request. A count that drifted would keep `shutDownWhenIdle`
    /// from ending the loop, hence the checks in debug builds.
    @exclusivity(unchecked) private var activeCount = 0
    private let concurrentRequestsPerHost: Int
    @exclusivity(unchecked) private var runningPerHost: [TransferTarget.HostKey: Int] = [:]
    /// Transfers held back by the per-host cap, highest priority first, then in arrival order.
    /// A cancelled one stays in its queue, already completed, until its turn comes (`didEnd`
    /// skips it): finding it to remove it would cost a search of the queue per cancel.
    @exclusivity(unchecked) private var waitingPerHost: [TransferTarget.HostKey: WaitingQueue<CurlTransfer>] = [:]
    /// Finished easy handles, each already carrying the baseline options (see `applyBaseline`).
    @exclusivity(unchecked) private var easyPool: [UnsafeMutableRawPointer] = []
    /// The `User-Agent` and `Accept-Encoding` lines, shared by every transfer's handle; it
    /// outlives them all, since the loop cleans up every handle before the engine can go away.
    private let defaultHeaders: CurlDefaultHeaders
    /// The hand-off of finished transfers to the callback queues, with its tuning and counts.
    let scheduler: DeliveryScheduler
    private static let easyPoolLimit = 64

    /// Makes the engine and starts its loop thread, handing completions over as `delivery` says.
    /// - Throws: ``NetworkError/Kind/transport`` when libcurl cannot be initialised;
    ///   ``NetworkError/Kind/invalidRequest`` when `userAgent` has CR, LF or NUL, or a DNS
    ///   override is invalid.
    init(limits: Limits, routing: Routing = Routing(), userAgent: String, name: String,
         delivery: DeliveryTuning) throws(NetworkError) {
        let unavailable = NetworkError(.transport, "libcurl could not be initialised")
        guard CurlGlobal.isInitialized else { throw unavailable }
        // Before the multi handle, so a refused setting leaves nothing to clean up.
        var resolveLines: [String] = []
        for override in routing.dnsOverrides { resolveLines.append(try override.curlResolveEntry()) }
        defaultHeaders = try CurlDefaultHeaders(userAgent: userAgent)
        var resolveList: UnsafeMutablePointer<curl_slist>?
        for line in resolveLines {
            guard let appended = curl_slist_append(resolveList, line) else {
                curl_slist_free_all(resolveList)
                throw unavailable
            }
            resolveList = appended
        }
        self.resolveList = resolveList
        guard let multi = curl_multi_init() else {
            curl_slist_free_all(resolveList)
            throw unavailable
        }
        self.multi = multi
        concurrentRequestsPerHost = limits.concurrentRequestsPerHost
        _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, limits.connectionsPerHost)
        _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, limits.totalConnections)
        _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, limits.cachedConnections)
        _ = ccurl_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))

        // Easy handles come and go per request; the share handle keeps DNS results and TLS
        // sessions between them (the multi handle already pools connections). Used on the
        // loop thread only, so it needs no lock callbacks.
        let share = curl_share_init()
        if let share {
            _ = ccurl_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_DNS.rawValue))
            _ = ccurl_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_SSL_SESSION.rawValue))
        }
        self.share = share
        // The HSTS entries live in the share handle, so every handle sees what any learned.
        if let file = routing.hstsFile, let share,
           ccurl_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_HSTS.rawValue)) == CURLSHE_OK {
            hsts = CurlHSTSStore(file: file)
        } else {
            hsts = nil
        }
        scheduler = DeliveryScheduler(tuning: delivery)

        let thread = Thread { [self] in
            Self.prepareLoopThread(named: name)
            run()
        }
        thread.name = name
        thread.start()
    }

    /// Hands a transfer to the loop thread. Its completion is called exactly once.
    func add(_ transfer: CurlTransfer) {
        scheduler.transferStarted()
        enqueue(.add(transfer))
    }

    /// Asks the loop thread to end a transfer with a cancelled error. Safe from any thread,
    /// any number of times, before or after the transfer finished.
    func cancel(_ transfer: CurlTransfer) {
        transfer.isCancelRequested.store(true, ordering: .relaxed)
        enqueue(.cancel(transfer))
    }

    /// Asks the loop thread to resume a transfer its stream paused. Safe from any thread, at
    /// any time: a transfer that is not paused, or already finished, is left alone.
    func resume(_ transfer: CurlTransfer) {
        enqueue(.resume(transfer))
    }

    /// Ends the loop thread once every transfer in flight has finished. New transfers are
    /// still accepted until then, so requests already made never fail because of it.
    func shutDownWhenIdle() {
        commands.withLock { $0.isShuttingDown = true }
        curl_multi_wakeup(multi)
    }

    private func enqueue(_ command: Command) {
        commands.withLock { $0.pending.append(command) }
        pendingCommands.add(1, ordering: .sequentiallyConsistent)
        if isWaiting.load(ordering: .sequentiallyConsistent) { curl_multi_wakeup(multi) }
    }

    // MARK: The loop (loop thread only)

    private func run() {
        var running: Int32 = 0
        var pending: [Command] = []
        while true {
            let isShuttingDown = commands.withLock { state in
                swap(&pending, &state.pending)
                return state.isShuttingDown
            }
            pendingCommands.subtract(pending.count, ordering: .sequentiallyConsistent)
            for command in pending {
                switch command {
                case .add(let transfer): start(transfer)
                case .cancel(let transfer): stop(transfer)
                case .resume(let transfer): transfer.resumeIfPaused()
                }
            }
            pending.removeAll(keepingCapacity: true)
            if isShuttingDown, activeCount == 0, waitingPerHost.isEmpty { break }

            _ = curl_multi_perform(multi, &running)
            let finishedCount = finishCompletedTransfers()

            // A completion usually sends the next request within microseconds; waiting for it
            // briefly here is cheaper than sleeping and being woken by a syscall — when the
            // callback thread can run meanwhile, on another processor (the scheduler says).
            if finishedCount > 0, scheduler.waitsByYielding { awaitCommands(forNanoseconds: DeliveryScheduler.loopWarmth) }

            // With nothing in flight only a wakeup matters; otherwise libcurl shortens the
            // wait to its own next timeout.
            isWaiting.store(true, ordering: .sequentiallyConsistent)
            if pendingCommands.load(ordering: .sequentiallyConsistent) <= 0 {
                let timeout: Int32 = activeCount == 0 ? 60_000 : 1_000
                _ = curl_multi_poll(multi, nil, 0, timeout, nil)
            }
            isWaiting.store(false, ordering: .sequentiallyConsistent)
        }
        for handle in easyPool {
            // A pooled handle still points at the error buffer of the transfer that used it
            // last, which may be gone: libcurl must not be able to write there while closing.
            _ = ccurl_easy_setopt_pointer(handle, CURLOPT_ERRORBUFFER, nil)
            curl_easy_cleanup(handle)
        }
        easyPool.removeAll()
        curl_multi_cleanup(multi)
        if let hsts, let share { hsts.saveIfChanged(share: share, force: true) }
        if let share { curl_share_cleanup(share) }
        curl_slist_free_all(resolveList)
    }

    private func start(_ transfer: CurlTransfer) {
        if transfer.isCancelRequested.load(ordering: .relaxed) {
            transfer.complete(with: .failure(NetworkError(.cancelled, "the request was cancelled")))
            return
        }
        if hsts != nil { transfer.mayBeUpgradedToTLS = !transfer.target.isHTTPS }
        let host = transfer.hostKey
        if concurrentRequestsPerHost > 0, runningPerHost[host, default: 0] >= concurrentRequestsPerHost {
            // In place: the dictionary's storage is modified, not copied out and back.
            waitingPerHost[host, default: WaitingQueue()].append(transfer, priority: transfer.request.priority)
            return
        }
        launch(transfer)
    }

    private func launch(_ transfer: CurlTransfer) {
        // A download or a stream sets a larger receive buffer, which libcurl refuses
        // (BAD_FUNCTION_ARGUMENT) on a handle that has already allocated one: they get a fresh handle.
        let pooled = transfer.setsReceiveBuffer ? nil : easyPool.popLast()
        guard let handle = pooled ?? makeHandle() else {
            transfer.complete(with: .failure(NetworkError(.transport, "libcurl could not create a handle")))
            return
        }
        if transfer.request.responseStream != nil || transfer.request.body.stream != nil {
            // Weak: the closure lives in the request's stream, which the transfer holds.
            transfer.requestResume = { [weak self, weak transfer] in
                if let self, let transfer { self.resume(transfer) }
            }
        }
        do {
            try transfer.configure(handle: handle, defaultHeaders: defaultHeaders)
        } catch {
            transfer.complete(with: .failure(error))
            recycle(transfer.cleanUp(), isDirty: true)
            return
        }
        let code = curl_multi_add_handle(multi, handle)
        guard code == CURLM_OK else {
            let message = String(cString: curl_multi_strerror(code))
            transfer.complete(with: .failure(NetworkError(.transport, "libcurl refused the transfer: \(message)")))
            recycle(transfer.cleanUp(), isDirty: true)
            return
        }
        activeCount += 1
        runningPerHost[transfer.hostKey, default: 0] += 1
    }

    private func stop(_ transfer: CurlTransfer) {
        let cancelled = NetworkError(.cancelled, "the request was cancelled")
        guard let handle = transfer.easy else {
            // Waiting behind the per-host cap: completed now, skipped when its turn comes. Not
            // started yet: `start` sees the flag. Already finished: `complete` ignores this.
            transfer.complete(with: .failure(cancelled))
            return
        }
        removeFromMulti(handle)
        transfer.complete(with: .failure(cancelled))
        recycle(transfer.cleanUp(), isDirty: transfer.needsHandleReset,
                    keepsLargeBuffer: transfer.setsReceiveBuffer)
        didEnd(onHost: transfer.hostKey)
    }

    /// Takes a running transfer's handle out of the multi handle and off the count.
    private func removeFromMulti(_ handle: UnsafeMutableRawPointer) {
        curl_multi_remove_handle(multi, handle)
        activeCount -= 1
        assert(activeCount >= 0, "a transfer left the multi handle twice")
    }

    /// Frees the host's slot and starts waiting transfers for it while the cap allows.
    private func didEnd(onHost host: TransferTarget.HostKey) {
        if let index = runningPerHost.index(forKey: host) {
            let running = runningPerHost.values[index] - 1
            if running > 0 { runningPerHost.values[index] = running } else { runningPerHost.remove(at: index) }
        }
        guard !waitingPerHost.isEmpty else { return }
        while runningPerHost[host, default: 0] < concurrentRequestsPerHost, let index = waitingPerHost.index(forKey: host) {
            guard let next = waitingPerHost.values[index].popFirst() else {
                waitingPerHost.remove(at: index)
                break
            }
            if waitingPerHost.values[index].isEmpty { waitingPerHost.remove(at: index) }
            if next.isCancelRequested.load(ordering: .relaxed) {
                next.complete(with: .failure(NetworkError(.cancelled, "the request was cancelled")))
            } else {
                launch(next)
            }
        }
    }

    /// Yields the processor until a command arrives or the time is up.
    private func awaitCommands(forNanoseconds budget: UInt64) {
        let deadline = DispatchTime.now().uptimeNanoseconds + budget
        while pendingCommands.load(ordering: .relaxed) <= 0, DispatchTime.now().uptimeNanoseconds < deadline {
            sched_yield()
        }
    }

    /// Finishes every transfer libcurl reports done; returns how many.
    ///
    /// The completion blocks of one pass that go to the same library-made (serial) callback
    /// queue are queued as one block (``DeliveryScheduler/CompletionBatch``); those for any
    /// other queue, and all of them with ``DeliveryTuning/off``, one by one.
    private func finishCompletedTransfers() -> Int {
        var finished = 0
        var remaining: Int32 = 0
        var batch = DeliveryScheduler.CompletionBatch()
        while let message = curl_multi_info_read(multi, &remaining) {
            var handle: UnsafeMutableRawPointer?
            var code = CURLE_OK
            guard ccurl_multi_message_done(message, &handle, &code) == 1, let handle else { continue }
            var privatePointer: UnsafeMutableRawPointer?
            guard ccurl_easy_getinfo_pointer(handle, CURLINFO_PRIVATE, &privatePointer) == CURLE_OK,
                  let privatePointer else { continue }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(privatePointer).takeUnretainedValue()
            if transfer.restartsOnFreshConnection, restart(transfer, handle: handle) { continue }
            let result = transfer.result(for: code)
            if let hsts, transfer.target.isHTTPS || transfer.mayBeUpgradedToTLS, transfer.headerValue("Strict-Transport-Security") != nil, let share {
                hsts.saveIfChanged(share: share)
            }
            removeFromMulti(handle)
            if transfer.batchesCompletion {
                if let block = transfer.completionBlock(for: result) { batch.add(block, on: transfer.callbackQueue) }
            } else {
                transfer.complete(with: result)
            }
            recycle(transfer.cleanUp(), isDirty: transfer.needsHandleReset,
                    keepsLargeBuffer: transfer.setsReceiveBuffer)
            didEnd(onHost: transfer.hostKey)
            finished += 1
        }
        batch.flush()
        return finished
    }

    /// Starts a transfer again on a fresh connection after its reused one turned out to hold
    /// unrequested bytes (libcurl closed that one; nothing of the request was sent). The handle
    /// stays counted in `activeCount` and on its host. Returns `false` when it cannot be
    /// started again: the caller then finishes it with its error, as usual.
    private func restart(_ transfer: CurlTransfer, handle: UnsafeMutableRawPointer) -> Bool {
        curl_multi_remove_handle(multi, handle)
        guard transfer.restartOnFreshConnection() else { return false }
        return curl_multi_add_handle(multi, handle) == CURLM_OK
    }

    /// A new easy handle with the baseline options, or `nil` when libcurl cannot make one.
    private func makeHandle() -> UnsafeMutableRawPointer? {
        guard let handle = curl_easy_init() else { return nil }
        guard CurlTransfer.applyBaseline(to: handle, share: share, resolveList: resolveList, hsts: hsts) == CURLE_OK else {
            curl_easy_cleanup(handle)
            return nil
        }
        return handle
    }

    /// Keeps a finished easy handle for the next transfer; the connection stays pooled in the
    /// multi handle. A handle a transfer left dirty is reset (`curl_easy_reset` clears every
    /// option) and given the baseline again; a clean one is reused as it is.
    private func recycle(_ handle: UnsafeMutableRawPointer?, isDirty: Bool, keepsLargeBuffer: Bool = false) {
        guard let handle else { return }
        // A download's handle holds a 512 KiB buffer; pooling it would keep that memory around.
        guard easyPool.count < CurlEngine.easyPoolLimit, !keepsLargeBuffer else {
            curl_easy_cleanup(handle)
            return
        }
        if isDirty {
            curl_easy_reset(handle)
            guard CurlTransfer.applyBaseline(to: handle, share: share, resolveList: resolveList, hsts: hsts) == CURLE_OK else {
                curl_easy_cleanup(handle)
                return
            }
        }
        easyPool.append(handle)
    }
}
