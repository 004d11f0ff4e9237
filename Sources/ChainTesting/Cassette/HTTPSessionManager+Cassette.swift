import AFStyle
import HTTPCore

extension HTTPSessionManager {
    /// The cassette that records and replays this manager's requests: the first ``Cassette``
    /// in ``responders``. Default `nil` (none).
    ///
    /// Setting removes every cassette from ``responders`` and appends the new one at the end,
    /// so responders before it (a stub table) answer first; `nil` only removes them. The
    /// change is one step under the manager's lock.
    public var cassette: Cassette? {
        get { responders.lazy.compactMap { $0 as? Cassette }.first }
        set { updateResponders { $0 = $0.replacingCassette(with: newValue) } }
    }
}
