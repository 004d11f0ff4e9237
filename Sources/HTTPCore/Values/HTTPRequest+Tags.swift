extension HTTPRequest {
    /// What a caller attaches to a request for its own hooks and interceptors: tags and one
    /// value (a Moya-style target). Never sent, never part of a cache key.
    ///
    /// Two requests that differ only here compare equal (and hash alike): the annotations are
    /// not part of the exchange, so such requests send the same bytes, share one transfer when
    /// coalesced and share a cache entry.
    package struct Annotations: Sendable, Hashable {
        struct Content: Sendable {
            var tags: Set<String> = []
            var attachment: (any Sendable)?
        }

        /// `nil` (the default) for none, so a plain request carries nothing to copy.
        var content: Content?

        package static func == (lhs: Annotations, rhs: Annotations) -> Bool { true }
        package func hash(into hasher: inout Hasher) {}
    }

    /// The caller's tags, e.g. `"silent"` for a call a progress display should skip: set with
    /// Chain's `Request.tag(_:)` (and a target's `tags`) or AFStyle's
    /// `HTTPSessionManager.withTags(_:_:)`, read by hooks (``HookContext/request``) and
    /// interceptors. Default: none.
    ///
    /// Tags are never sent and are not part of the request's identity: two requests that
    /// differ only in their tags are equal, coalesce and share a cache entry. Redirect hops
    /// and retries keep them.
    public var tags: Set<String> {
        get { fields.annotations.content?.tags ?? [] }
        set { changeAnnotations { $0.tags = newValue } }
    }

    /// A value the front end attaches for hooks and interceptors (Chain: the request's
    /// `TargetType`, read with `target(as:)`); like ``tags``, never sent and not part of the
    /// request's identity. Default `nil`.
    package var attachment: (any Sendable)? {
        get { fields.annotations.content?.attachment }
        set { changeAnnotations { $0.attachment = newValue } }
    }

    private mutating func changeAnnotations(_ change: (inout Annotations.Content) -> Void) {
        var content = fields.annotations.content ?? Annotations.Content()
        change(&content)
        setAnnotations(Annotations(content: content.tags.isEmpty && content.attachment == nil ? nil : content))
    }
}
