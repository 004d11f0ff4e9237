import Dispatch
import HTTPCore

extension HTTPClient {
    /// `Chain/<version> libcurl/<version>`, the default `User-Agent`.
    public static let defaultUserAgent = "Chain/\(version) libcurl/\(CurlGlobal.version)"

    /// The client both front ends use unless told otherwise, with the default configuration.
    public static let shared = HTTPClient()

    /// Makes a client and starts its engine thread: one loop thread with one libcurl multi
    /// handle, which pools connections, DNS results and TLS sessions. If libcurl cannot be
    /// initialised, every request fails with ``NetworkError/Kind/transport`` instead of crashing;
    /// if the configured user agent has CR, LF or NUL, or a DNS override is invalid, with
    /// ``NetworkError/Kind/invalidRequest``.
    /// - Parameter configuration: the client's settings. Default: every default of
    ///   ``Configuration/init(maximumConnectionsPerHost:maximumConcurrentRequestsPerHost:maximumConnections:maximumIdleConnections:callbackQueue:userAgent:interceptors:delivery:)``.
    public convenience init(configuration: Configuration = Configuration()) {
        let limits = CurlEngine.Limits(connectionsPerHost: max(0, configuration.maximumConnectionsPerHost),
                                       concurrentRequestsPerHost: max(0, configuration.maximumConcurrentRequestsPerHost),
                                       totalConnections: max(0, configuration.maximumConnections),
                                       cachedConnections: max(1, configuration.maximumIdleConnections))
        let transport: any Transport
        do {
            let routing = CurlEngine.Routing(dnsOverrides: configuration.dnsOverrides, hstsFile: configuration.hstsFile)
            transport = try LibcurlTransport(limits: limits, routing: routing, userAgent: configuration.userAgent ?? HTTPClient.defaultUserAgent,
                                             name: "chain.curl-loop", delivery: configuration.delivery)
        } catch {
            transport = FailingTransport(error: error)
        }
        self.init(configuration: configuration, transport: transport)
    }

    /// The engine's hand-off to the callback queues (its tuning and counts), for tests.
    var deliveryScheduler: DeliveryScheduler? { (transport as? LibcurlTransport)?.engine.scheduler }
}
