import AFStyle
import Chain
import Foundation
import SampleServer
import Testing

/// Files that do not exist (or are directories), through every way both front ends take a
/// file: a clear typed error before anything is sent, and the server sees no connection.
@Suite("Hostile input: files", .timeLimit(.minutes(2)))
struct MissingFileTests {
    /// A file part or body file that does not exist (or is a directory) fails with fileIO
    /// before anything is sent. Defence: `HTTPClient.validate`'s `requireReadableFile` and
    /// AFStyle's `MultipartFormBuilder` check (even when the block swallows the error).
    @Test func missingFilesFailBeforeSending() async throws {
        let server = try SampleServer(port: 0)
        defer { server.stop() }
        let directory = try temporaryDirectory("files")
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("missing.bin")
        let url = server.baseURL.absoluteString + "/upload"
        let queue = DispatchQueue(label: "hardening.hostile.files")
        let configuration = chainConfiguration(queue: queue)

        for file in [missing, directory] {
            var form = MultipartFormData()
            form.append("field", name: "caption")
            form.append(fileURL: file, name: "file")
            let (_, multipart) = startChain(Request.url(url).configuration(configuration).method(.post).multipart(form))
            #expect(try #require(await multipart.wait(for: 1).first).kind == .fileIO, "Chain multipart, \(file.lastPathComponent)")
            let (_, body) = startChain(Request.url(url).configuration(configuration).method(.post).body(fileURL: file))
            #expect(try #require(await body.wait(for: 1).first).kind == .fileIO, "Chain body file, \(file.lastPathComponent)")

            let swallowed = AFCallbacks()
            let task = makeManager(queue: queue).POST(url, parameters: ["a": "b"], constructingBodyWith: { formData in
                try? formData.appendPart(withFileURL: file, name: "file")
            }, success: swallowed.success, failure: swallowed.failure)
            #expect(try #require(await swallowed.log.wait(for: 1).first).kind == .fileIO, "AFStyle multipart")
            #expect(task == nil)

            let upload = AFCallbacks()
            makeManager(queue: queue).upload(url, fromFile: file, success: upload.success, failure: upload.failure)
            #expect(try #require(await upload.log.wait(for: 1).first).kind == .fileIO, "AFStyle upload")
        }

        let download = AFCallbacks()
        makeManager(queue: queue).download(server.baseURL.absoluteString + "/bytes/10",
                                           to: directory.appendingPathComponent("no/such/dir/file.bin"),
                                           success: { _, _ in download.log.append(.success(bytes: 0)) },
                                           failure: download.failure)
        #expect(try #require(await download.log.wait(for: 1).first).kind == .fileIO, "AFStyle download into a missing directory")
        #expect(server.acceptedConnections == 0)
    }
}
