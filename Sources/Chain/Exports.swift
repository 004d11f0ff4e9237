// `import Chain` is all an app writes: the core's values (HTTPMethod, NetworkError, Envelope,
// Lenient, …) and the cache's policies come with it.
@_exported import Cache
@_exported import Cookies
@_exported import CurlTransport
@_exported import HTTPCore
@_exported import HTTPFeatures
