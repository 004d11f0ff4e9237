// streaming — server-sent events (an LLM-style token stream printed as it arrives, a feed that
// reconnects with Last-Event-ID), NDJSON, HTTPSessionManager's streaming data task, and a
// streamed upload. Runs against its own sample server on loopback, exits 0 or 1.
// The code is in Samples/Scenarios.
import Foundation
import SampleScenarios

exit(await SampleRunner.runWithOwnServer([.streaming]))
