import ChainModels
import Testing

@Suite("ChainModels")
struct ChainModelsSmokeTests {
    @Test("one import brings both front ends")
    func reexports() {
        #expect(Request.url("user/1").effectiveConfiguration.baseURL == nil)
        #expect(HTTPSessionManager(baseURL: nil).baseURL == nil)
    }
}
