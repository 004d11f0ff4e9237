// rank-list — the ranking list: nested envelope, lenient fields, a large download with progress.
// Starts the sample server on a free loopback port, runs the sample, exits 0 or 1.
// The code is in Samples/Scenarios.
import Foundation
import SampleScenarios

exit(await SampleRunner.runWithOwnServer([.rankList]))
