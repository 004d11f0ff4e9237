import Chain
import Foundation
import Testing

/// `curl` rendering and redaction.
@Suite("curl rendering", .timeLimit(.minutes(2)))
struct CurlRenderingTests {
    private func request(_ url: String = "http://127.0.0.1:8080/account/login") -> Request {
        Request.url(url).configuration(ChainConfiguration())
    }

    @Test func getIsACurlOfTheURL() {
        let text = request("http://127.0.0.1:8080/user/101").curlCommand(multiline: false)
        #expect(text == "curl -L --max-redirs 10 'http://127.0.0.1:8080/user/101'")
    }

    @Test func formPasswordIsRedacted() {
        let text = request().method(.post).params(["username": "wiki", "password": "secret"]).curlDescription
        #expect(text.contains("-X 'POST'"))
        #expect(text.contains("--data-binary 'password=***&username=wiki'"))
        #expect(!text.contains("secret"))
        #expect(text.contains(" \\\n  "))
    }

    @Test func multilineFormatIsTheOneTheDocsShow() {
        let text = request().method(.post).params(["username": "wiki", "password": "secret"]).curlDescription
        #expect(text == """
            curl -X 'POST' \\
              -L --max-redirs 10 \\
              -H 'Content-Type: application/x-www-form-urlencoded; charset=utf-8' \\
              --data-binary 'password=***&username=wiki' \\
              'http://127.0.0.1:8080/account/login'
            """)
    }

    @Test func jsonSecretsAreRedactedAtAnyDepth() {
        let text = request().method(.post).encoding(.json)
            .params(["user": ["name": "wiki", "passwd": "p1"], "access_token": "t1", "list": [["pwd": "p2"]]])
            .curlCommand(multiline: false)
        #expect(text.contains(#""passwd":"***""#))
        #expect(text.contains(#""access_token":"***""#))
        #expect(text.contains(#""pwd":"***""#))
        #expect(text.contains(#""name":"wiki""#))
        #expect(!text.contains("p1") && !text.contains("t1") && !text.contains("p2"))
    }

    @Test func queryUserInfoAndHeadersAreRedacted() {
        let text = request("http://me:hunter2@127.0.0.1:8080/get?token=abc&page=1&user%5Bpassword%5D=x")
            .header("Authorization", "Bearer abc.def")
            .header("Cookie", "session=s1; theme=dark")
            .header("X-Trace", "visible")
            .curlCommand(multiline: false)
        #expect(text.contains("'Authorization: Bearer ***'"))
        #expect(text.contains("'Cookie: session=***; theme=***'"))
        #expect(text.contains("'X-Trace: visible'"))
        #expect(text.contains("token=***&page=1&user%5Bpassword%5D=***"))
        #expect(text.contains("me:***@"))
        #expect(!text.contains("hunter2") && !text.contains("abc") && !text.contains("s1"))
    }

    @Test func nothingIsRedactedWithRedactionNone() {
        let text = request().method(.post).params(["password": "secret"]).header("Authorization", "Basic eA==")
            .curlCommand(redacting: .none, multiline: false)
        #expect(text.contains("password=secret"))
        #expect(text.contains("Basic eA=="))
    }

    @Test func singleQuotesAreShellEscaped() {
        let text = request("http://127.0.0.1:8080/post").method(.post).body(Data("it's".utf8), contentType: "text/plain")
            .curlCommand(multiline: false)
        #expect(text.contains(#"--data-binary 'it'\''s'"#))
    }

    @Test func binaryFileAndMultipartBodies() {
        let binary = request("http://h/post").method(.post).body(Data([0, 1, 2])).curlCommand(multiline: false)
        #expect(binary.contains("'<3 bytes>'"))
        let file = request("http://h/post").method(.post).body(fileURL: URL(fileURLWithPath: "/tmp/a b.txt"))
            .curlCommand(multiline: false)
        #expect(file.contains("--data-binary '@/tmp/a b.txt'"))
        var form = MultipartFormData()
        form.append("wiki", name: "username")
        form.append("secret", name: "password")
        form.append(fileURL: URL(fileURLWithPath: "/tmp/photo.jpg"), name: "avatar", mimeType: "image/jpeg")
        let multipart = request("http://h/upload").method(.post).multipart(form).curlCommand(multiline: false)
        #expect(multipart.contains("--form-string 'username=wiki'"))
        #expect(multipart.contains("--form-string 'password=***'"))
        #expect(multipart.contains("-F 'avatar=@/tmp/photo.jpg;filename=photo.jpg;type=image/jpeg'"))
    }

    @Test func headUsesHeadAndInvalidRequestsSayWhy() {
        #expect(request("http://h/get").method(.head).curlCommand(multiline: false).hasPrefix("curl --head"))
        #expect(Request.url("").configuration(ChainConfiguration()).curlDescription.hasPrefix("# invalid request:"))
        #expect(Request.url("").debugDescription == Request.url("").curlDescription)
    }

    @Test func redactionNamesAreNormalised() {
        let redaction = Redaction.default
        #expect(redaction.redactsParameter(named: "accessToken"))
        #expect(redaction.redactsParameter(named: "Refresh-Token"))
        #expect(redaction.redactsParameter(named: "newPassword"))
        #expect(redaction.redactsParameter(named: "user[password]"))
        #expect(!redaction.redactsParameter(named: "username"))
        #expect(!redaction.redactsParameter(named: "page"))
    }

    /// The rendered command, run by a real shell and curl against the sample server, sends
    /// what the request sends.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")))
    func renderedCommandRunsInAShell() async throws {
        let request = Request.url(try TestServer.url("/anything/run?q=it's"))
            .method(.post)
            .header("X-Quote", "a'b \"c\"")
            .params(["text": "hello world & more", "n": 1])
        let command = request.curlCommand(redacting: .none)
        let output = try await Self.run(command + " --silent")
        let echo = try JSONDecoder().decode(Echo.self, from: output)
        let sent = try await request.value(Echo.self)
        #expect(echo.method == "POST")
        #expect(echo.form == ["text": "hello world & more", "n": "1"])
        #expect(echo.form == sent.form)
        #expect(echo.args == sent.args)
        #expect(echo.headers["X-Quote"] == "a'b \"c\"")
    }

    private static func run(_ command: String) async throws -> Data {
        // Reading and waiting block: off the concurrency pool (see `offPool`).
        try await offPool { () -> Result<Data, TestFailure> in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", command]
            let pipe = Pipe()
            process.standardOutput = pipe
            do { try process.run() } catch { return .failure(TestFailure("cannot start sh: \(error)")) }
            // Read to the end first: a full pipe would otherwise block the child.
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { return .failure(TestFailure("curl exited with \(process.terminationStatus)")) }
            return .success(data)
        }.get()
    }
}
