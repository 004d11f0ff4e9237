// unix-socket — Docker-style JSON from a daemon on a Unix socket: an http+unix URL, an http URL
// with .unixSocket(path), a configuration for every call with a typed 404, and HTTPSessionManager.
// The sample starts its own server on a socket file in a temporary directory, exits 0 or 1.
// The code is in Samples/Scenarios.
import Foundation
import SampleScenarios

exit(await SampleRunner.runWithOwnServer([.unixSocket]))
