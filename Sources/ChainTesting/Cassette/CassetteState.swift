/// What a ``Cassette`` keeps behind its lock: the interactions in file order, with what the
/// matching needs of each and what this process did with them.
struct CassetteState: Sendable {
    struct Entry: Sendable {
        var interaction: CassetteInteraction
        var key: CassetteMatchKey
        /// Whether a request got this interaction already (recording one counts), so that
        /// repeated requests get the recordings in turn.
        var isUsed: Bool
        /// Whether it came from the file rather than from a recording of this process: under
        /// ``Cassette/Mode/record`` these are the old recordings a new one replaces.
        var isFromFile: Bool
    }

    private(set) var entries: [Entry]

    init(file: CassetteFile?, matching: CassetteMatching) {
        entries = (file?.interactions ?? []).map { interaction in
            Entry(interaction: interaction, key: matching.key(for: interaction.request), isUsed: false, isFromFile: true)
        }
    }

    /// The file as it stands.
    var file: CassetteFile { CassetteFile(interactions: entries.map(\.interaction)) }

    /// The interaction to replay for a request with `key`: the first match not used yet,
    /// else the last match again; `nil` when none matches.
    mutating func replay(for key: CassetteMatchKey) -> CassetteInteraction? {
        var lastMatch: Int?
        for index in entries.indices where key.matches(entries[index].key) {
            if !entries[index].isUsed {
                entries[index].isUsed = true
                return entries[index].interaction
            }
            lastMatch = index
        }
        return lastMatch.map { entries[$0].interaction }
    }

    /// Adds a new recording. With `replacingOldRecordings`, it takes the place of the first
    /// interaction from the file it matches, and the file's other matches go: re-recording a
    /// request replaces what the file had for it, however often it was recorded before, while
    /// the repeats recorded in this process are all kept, in order. Otherwise it is appended.
    mutating func record(_ interaction: CassetteInteraction, key: CassetteMatchKey, replacingOldRecordings: Bool) {
        let entry = Entry(interaction: interaction, key: key, isUsed: true, isFromFile: false)
        let stale = replacingOldRecordings
            ? entries.indices.filter { entries[$0].isFromFile && key.matches(entries[$0].key) } : []
        guard let first = stale.first else {
            entries.append(entry)
            return
        }
        entries[first] = entry
        for index in stale.dropFirst().reversed() { entries.remove(at: index) }
    }
}
