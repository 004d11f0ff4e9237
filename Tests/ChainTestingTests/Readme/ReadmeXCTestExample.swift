import ChainTesting
import XCTest

/// The README's XCTest example, as written there: an AFStyle call replayed offline from a
/// cassette recorded once (against the sample server under the name staging.example.com, the
/// file next to this one).
final class UserListTests: XCTestCase {
    func testUsersComeFromTheCassette() throws {
        let manager = HTTPSessionManager(baseURL: URL(string: "http://staging.example.com/"))
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Cassettes/users.json")
        manager.cassette = try Cassette(fileURL: file, mode: .replay)

        let done = expectation(description: "users")
        manager.GET("user/query", parameters: ["q": "i"], headers: nil, progress: nil, success: { _, object in
            XCTAssertEqual((object as? [[String: Any]])?.count, 2)
            done.fulfill()
        }, failure: { _, error in
            XCTFail("\(error)")
            done.fulfill()
        })
        wait(for: [done], timeout: 10)
    }
}
