import Dispatch
import Foundation
import SampleServer

/// `sample-server [--port N | --unix-socket PATH]`: serves the sample API on 127.0.0.1 (or on a
/// Unix-domain socket) until SIGINT or SIGTERM.
let usage = """
    usage: sample-server [--port N | --unix-socket PATH]

    Serves Chain's sample API and test routes on http://127.0.0.1:N (default port 8080; 0 picks
    a free port), or with --unix-socket on a Unix-domain socket at PATH instead (at most 107
    bytes; mode 0600; a stale socket file there is replaced, the file is removed on exit).
    Stops on Ctrl-C (SIGINT) or SIGTERM.

    Try: /user/101, POST /account/login (username=wiki, password=secret), /envelope/user/101,
    /rank/list, /get, /bytes/1024, /drip, /gzip, /etag/x, /status/418, /fault/stall,
    /v1.43/info, /v1.43/containers/json (e.g. curl --unix-socket PATH http://localhost/v1.43/info).
    The full route list is in the documentation of SampleServer (Sources/SampleServer/SampleServer.swift).
    """

var port: UInt16 = 8080
var unixSocketPath: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--port", "-p":
        guard let value = arguments.popFirst(), let parsed = UInt16(value) else {
            FileHandle.standardError.write(Data("sample-server: --port needs a number from 0 to 65535\n\(usage)\n".utf8))
            exit(2)
        }
        port = parsed
    case "--unix-socket", "-u":
        guard let value = arguments.popFirst(), !value.isEmpty else {
            FileHandle.standardError.write(Data("sample-server: --unix-socket needs a path\n\(usage)\n".utf8))
            exit(2)
        }
        unixSocketPath = value
    case "--help", "-h":
        print(usage)
        exit(0)
    default:
        FileHandle.standardError.write(Data("sample-server: unknown argument \(argument)\n\(usage)\n".utf8))
        exit(2)
    }
}

let server: SampleServer
do {
    if let unixSocketPath {
        server = try SampleServer(unixSocketPath: unixSocketPath)
    } else {
        server = try SampleServer(port: port)
    }
} catch {
    FileHandle.standardError.write(Data("sample-server: \(error)\n".utf8))
    exit(1)
}
// FileHandle writes unbuffered, so a script reading the URL from a pipe sees it at once.
let address = server.unixSocketPath.map { "unix:\($0) (\(server.baseURL.absoluteString) through the socket)" }
    ?? server.baseURL.absoluteString
FileHandle.standardOutput.write(Data("sample-server listening on \(address)\n".utf8))

waitForTerminationSignal()
FileHandle.standardOutput.write(Data("sample-server stopping\n".utf8))
server.stop()

/// Blocks until SIGINT or SIGTERM arrives. A function rather than top-level code so the
/// handler closure is not main-actor isolated: dispatch runs it on a global queue.
func waitForTerminationSignal() {
    // Ignored so the dispatch sources, not the default handlers, receive them.
    signal(SIGINT, SIG_IGN)
    signal(SIGTERM, SIG_IGN)
    signal(SIGPIPE, SIG_IGN)
    let finished = DispatchSemaphore(value: 0)
    let sources = [SIGINT, SIGTERM].map { number in
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler { finished.signal() }
        source.resume()
        return source
    }
    finished.wait()
    sources.forEach { $0.cancel() }
}
