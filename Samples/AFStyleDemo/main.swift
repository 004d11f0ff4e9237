// afstyle-demo — the AFNetworking-style facade: the same calls, and a multipart upload with progress.
// Starts the sample server on a free loopback port, runs the sample, exits 0 or 1.
// The code is in Samples/Scenarios.
import Foundation
import SampleScenarios

exit(await SampleRunner.runWithOwnServer([.afStyle]))
