// session — a login whose cookie arrives on a redirect hop, later calls through Chain and
// HTTPSessionManager sharing one cookie jar, a Digest-protected call, the redirection block,
// and a logout. Runs against its own sample server on loopback, exits 0 or 1.
// The code is in Samples/Scenarios.
import Foundation
import SampleScenarios

exit(await SampleRunner.runWithOwnServer([.session]))
