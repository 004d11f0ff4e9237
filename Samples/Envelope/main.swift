// envelope — the {errcode, errmsg, data} envelope: a model, a result-only call, a business error.
// Starts the sample server on a free loopback port, runs the sample, exits 0 or 1.
// The code is in Samples/Scenarios.
import Foundation
import SampleScenarios

exit(await SampleRunner.runWithOwnServer([.envelope]))
