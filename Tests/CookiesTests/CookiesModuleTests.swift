import Testing
@testable import Cookies

@Suite struct CookiesModuleTests {
    @Test func moduleLinks() { _ = CookiesModule.self }
}
