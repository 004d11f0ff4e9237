/// Carries a model made by the decode step to the one completion that gets it.
///
/// `@unchecked Sendable` because ObjectMapper models are often classes with `var`s: the model
/// is made in the decode step for this delivery only, ownership moves once to the completion,
/// and nothing else keeps a reference (a `.fileFirst` hit maps a separate model per delivery).
struct MappedHandOff<Value>: @unchecked Sendable {
    let value: Value
}

extension Result {
    /// The result with the model taken out of its hand-off.
    func unwrapped<Value>() -> Result<Value, Failure> where Success == MappedHandOff<Value> {
        switch self {
        case .success(let handOff): .success(handOff.value)
        case .failure(let error): .failure(error)
        }
    }
}
