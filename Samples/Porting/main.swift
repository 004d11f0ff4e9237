// porting — iOS code ported as written: a Moya target with tags, two envelope codes, a key path.
// Starts the sample server on a free loopback port, runs the sample, exits 0 or 1.
// The code is in Samples/Scenarios.
import Foundation
import SampleScenarios

exit(await SampleRunner.runWithOwnServer([.porting]))
