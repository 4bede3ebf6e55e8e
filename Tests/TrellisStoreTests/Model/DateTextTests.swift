import Foundation
import Testing
@testable import TrellisStore

@Suite("Dates as text")
struct DateTextTests {
    @Test("a date written, read and written again does not drift")
    func noDrift() throws {
        for step in 0..<3000 {
            let date = Date(timeIntervalSinceReferenceDate: 700_000_000 + Double(step) * 0.001 + 0.0004)
            let text = AttributeValue.iso8601(date)
            let back = try #require(AttributeValue.parseISO8601(text))
            #expect(AttributeValue.iso8601(back) == text)
            #expect(abs(back.timeIntervalSince(date)) <= 0.0005 + 1e-9, "rounded to the nearest millisecond")
        }
        #expect(AttributeValue.iso8601(Date(timeIntervalSince1970: 1.9996)) == "1970-01-01T00:00:02.000Z")
    }
}
