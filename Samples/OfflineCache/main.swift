// offline-cache — the offline cache: stored copy first, then the network, also with the server gone.
// Starts the sample server on a free loopback port, runs the sample, exits 0 or 1.
// The code is in Samples/Scenarios.
import Foundation
import SampleScenarios

exit(await SampleRunner.runWithOwnServer([.offlineCache]))
