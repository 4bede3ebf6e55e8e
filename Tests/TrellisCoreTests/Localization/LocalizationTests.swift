import Testing
import TrellisCore

/// The gettext helper's formatting; translating through real catalogues is tested out of
/// process (`trellis` with `LANGUAGE=ru`), since the locale is process-wide.
@Suite("Localization")
struct LocalizationTests {
    @Test("each %@ takes the next argument, in order; extra markers stay, extra arguments are dropped")
    func format() {
        #expect(Localization.format("There is no genre number %@", ["12"]) == "There is no genre number 12")
        #expect(Localization.format("%@ of %@", ["3", "7"]) == "3 of 7")
        #expect(Localization.format("%@ and %@", ["1"]) == "1 and %@")
        #expect(Localization.format("none", ["1"]) == "none")
        #expect(Localization.format("%@%@", ["a", "b"]) == "ab")
    }

    @Test("a string with no catalogue entry comes back as written")
    func untranslated() {
        #expect(tr("A sentence no catalogue has") == "A sentence no catalogue has")
        #expect(tr("") == "")
        #expect(tr("Page %@ of %@", "2", "9") == "Page 2 of 9")
    }
}
