/// A sample got an answer it did not expect. Samples throw it instead of printing and going
/// on, so `make demo` (and the test that runs every sample) fails loudly when one rots.
public struct SampleFailure: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// Throws a ``SampleFailure`` saying `what` was expected when `condition` is false.
func expect(_ condition: Bool, _ what: @autoclosure () -> String) throws(SampleFailure) {
    if !condition { throw SampleFailure("expected \(what())") }
}

/// Runs a call that should fail and returns its `NetworkError`; throws when it succeeds instead.
func expectFailure<Value>(_ what: String, _ call: () async throws -> Value) async throws -> NetworkError {
    let value: Value
    do {
        value = try await call()
    } catch let error as NetworkError {
        return error
    }
    throw SampleFailure("expected \(what) to fail, but it returned \(value)")
}
