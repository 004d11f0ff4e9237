import Chain
import HTTPCore

extension ChainConfiguration {
    /// The cassette that records and replays this configuration's requests: the first
    /// ``Cassette`` in ``responders``. Default `nil` (none).
    ///
    /// Setting removes every cassette from ``responders`` and appends the new one at the end,
    /// so responders before it (a stub table) answer first; `nil` only removes them.
    public var cassette: Cassette? {
        get { responders.lazy.compactMap { $0 as? Cassette }.first }
        set { responders = responders.replacingCassette(with: newValue) }
    }
}

extension Array where Element == any TransferResponder {
    /// These responders without their cassettes, and with `cassette` (when given) last.
    func replacingCassette(with cassette: Cassette?) -> [any TransferResponder] {
        var responders = filter { !($0 is Cassette) }
        if let cassette { responders.append(cassette) }
        return responders
    }
}
