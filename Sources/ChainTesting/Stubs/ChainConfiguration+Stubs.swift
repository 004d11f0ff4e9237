import Chain

extension ChainConfiguration {
    /// The stub table that answers this configuration's requests in place of the network.
    /// Default `nil`. Setting it puts the table first in ``ChainConfiguration/responders``
    /// (before a cassette, so a table's pass-through requests may be replayed), replacing
    /// any table there; `nil` removes it.
    public var stubs: StubTable? {
        get { responders.lazy.compactMap { $0 as? StubTable }.first }
        set {
            responders.removeAll { $0 is StubTable }
            if let newValue { responders.insert(newValue, at: 0) }
        }
    }
}
