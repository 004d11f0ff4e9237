@testable import Cookies
import Foundation
import Testing

@Suite struct CookieDateTests {
    /// 2015-10-21T07:28:00Z.
    let expected = Date(timeIntervalSince1970: 1_445_412_480)

    @Test(arguments: [
        "Wed, 21 Oct 2015 07:28:00 GMT",
        "Wednesday, 21-Oct-15 07:28:00 GMT",
        "Wed Oct 21 07:28:00 2015",
        "Wed, 21-Oct-2015 07:28:00 GMT",
        "21 October 2015 07:28:00",
        "wed, 21 OCT 2015 07:28:00 gmt",
        "Wed,21 Oct 2015 7:28:0 GMT",
        "2015 Oct 21 07:28:00",
    ])
    func usualFormats(_ text: String) {
        #expect(CookieDate.parse(text) == expected)
    }

    @Test func twoDigitYears() {
        #expect(CookieDate.parse("Thu, 01-Jan-70 00:00:00 GMT") == Date(timeIntervalSince1970: 0))
        #expect(CookieDate.parse("Sat, 01-Jan-00 00:00:00 GMT") == Date(timeIntervalSince1970: 946_684_800))
        #expect(CookieDate.parse("Tue, 01-Jan-69 00:00:00 GMT") == Date(timeIntervalSince1970: 3_124_224_000))
        #expect(CookieDate.parse("Fri, 31-Dec-99 23:59:59 GMT") == Date(timeIntervalSince1970: 946_684_799))
    }

    @Test func leapDays() {
        #expect(CookieDate.parse("29 Feb 2024 00:00:00") == Date(timeIntervalSince1970: 1_709_164_800))
        #expect(CookieDate.parse("29 Feb 2023 00:00:00") == nil)
        #expect(CookieDate.parse("29 Feb 2000 00:00:00") != nil)
        #expect(CookieDate.parse("29 Feb 1900 00:00:00") == nil)
    }

    @Test(arguments: [
        "",
        "garbage",
        "Wed, 21 Oct 2015 GMT",            // no time
        "Wed, Oct 2015 07:28:00 GMT",      // no day
        "Wed, 21 2015 07:28:00 GMT",       // no month
        "Wed, 21 Oct 07:28:00 GMT",        // no year
        "Wed, 32 Oct 2015 07:28:00 GMT",   // day out of range
        "Wed, 31 Nov 2015 07:28:00 GMT",   // no such day
        "Wed, 21 Oct 2015 24:00:00 GMT",   // hour out of range
        "Wed, 21 Oct 2015 07:60:00 GMT",   // minute out of range
        "Wed, 21 Oct 2015 07:28:60 GMT",   // second out of range
        "Wed, 21 Oct 1600 07:28:00 GMT",   // before 1601
        "Wed, 21 Oct 20150 07:28:00 GMT",  // five-digit year
        "Wed, 21 Oct 2015 07:28:000 GMT",  // three-digit seconds
    ])
    func invalidDatesAreRejected(_ text: String) {
        #expect(CookieDate.parse(text) == nil)
    }

    @Test func invalidExpiresIsIgnoredByTheJar() throws {
        let clock = ManualClock()
        let jar = CookieJar(clock: clock.reading)
        try jar.receive("a=1; Expires=31 Nov 2015 07:28:00", from: "https://example.com/")
        #expect(try #require(jar.only("a")).isSessionCookie)
    }
}
