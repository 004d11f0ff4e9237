extension HTTPSessionManager {
    /// The tags of the enclosing ``withTags(_:_:)`` calls, per manager.
    @TaskLocal static var scopedTags: [ObjectIdentifier: Set<String>] = [:]

    /// Runs `body` so that every call this manager makes in it carries `tags`
    /// (``HTTPCore/HTTPRequest/tags``) for hooks and interceptors — e.g. `"silent"` for calls a
    /// progress display skips. Tags are never sent and are not part of the cache key.
    ///
    /// ```swift
    /// manager.withTags(["silent"]) {
    ///     manager.GET("ping", parameters: nil, headers: nil, progress: nil, success: nil, failure: nil)
    /// }
    /// ```
    ///
    /// The tags are read when a call is made, on the thread that makes it, so they apply to
    /// calls made directly in `body` (not to calls made later from its callbacks). Nested
    /// calls add up; other managers' calls are not tagged.
    ///
    /// - Parameters:
    ///   - tags: the tags to add.
    ///   - body: makes the calls; its result is returned.
    @discardableResult
    public func withTags<Result>(_ tags: Set<String>, _ body: () throws -> Result) rethrows -> Result {
        var scoped = Self.scopedTags
        scoped[ObjectIdentifier(self), default: []].formUnion(tags)
        return try Self.$scopedTags.withValue(scoped) { try body() }
    }

    /// Adds the tags of the enclosing ``withTags(_:_:)`` calls to a request this manager sends.
    func applyScopedTags(to request: inout HTTPRequest) {
        if let tags = Self.scopedTags[ObjectIdentifier(self)] { request.tags.formUnion(tags) }
    }
}
