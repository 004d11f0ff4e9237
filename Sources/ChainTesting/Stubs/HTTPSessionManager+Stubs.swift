import AFStyle

extension HTTPSessionManager {
    /// The stub table that answers this manager's requests in place of the network. Default
    /// `nil`. Setting it puts the table first in ``HTTPSessionManager/responders`` (before a
    /// cassette), replacing any table there; `nil` removes it.
    public var stubs: StubTable? {
        get { responders.lazy.compactMap { $0 as? StubTable }.first }
        set {
            updateResponders { responders in
                responders.removeAll { $0 is StubTable }
                if let newValue { responders.insert(newValue, at: 0) }
            }
        }
    }
}
