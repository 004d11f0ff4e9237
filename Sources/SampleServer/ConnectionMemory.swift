/// What a route remembers about one client connection from one request to the next on it.
/// NTLM authenticates a connection, not a request: the challenge of its second message must
/// be checked against the third, which arrives on the same connection, and a connection that
/// finished the handshake stays authenticated. Lives on its connection's thread only.
package final class ConnectionMemory {
    /// The connection's number: 1 for the server's first, counting accepted connections.
    package let serial: Int
    /// The requests served on this connection before the current one.
    package internal(set) var requestsBefore = 0

    init(serial: Int) {
        self.serial = serial
    }

    /// The 8-byte server challenge of the last NTLM type-2 message sent on this connection.
    var ntlmChallenge: [UInt8]?
    /// The user whose NTLM handshake succeeded on this connection (lower-cased), if any.
    var ntlmUser: String?
}
