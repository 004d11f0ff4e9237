// `import AFStyle` is all a ported AFNetworking program needs: the request, response and
// error types it passes around live in the core, the cache policies in the cache module.
@_exported import Cache
@_exported import Cookies
@_exported import CurlTransport
@_exported import HTTPCore
@_exported import HTTPFeatures
