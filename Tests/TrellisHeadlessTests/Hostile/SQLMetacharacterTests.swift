import Foundation
import Testing
import TrellisCore
import TrellisDemo
import TrellisHeadless
import TrellisTesting

/// SQL metacharacters typed by a person: into the catalog and notes searches, and into a
/// note's title and text, through the headless front end. They are data, never SQL or
/// patterns: searches match them literally, notes store and read them back verbatim, and
/// every other note stays intact.
@MainActor
@Suite("SQL metacharacters in searches and fields")
struct SQLMetacharacterTests {
    /// Title and text of each note saved, hostile ones first, one ordinary note last.
    static let notes: [(title: String, body: String)] = [
        ("'; DROP TABLE Note; --", "x' OR '1'='1"),
        ("100% sure", "%"),
        ("snake_case", "_"),
        (#"C:\path\to"#, #"\"#),
        (#"say "hi""#, #""); DELETE FROM Note; --"#),
        ("Покупки", "хлеб"),
    ]

    @Test("typed into the catalog search, metacharacters match literally: no row, while a real hyphen matches",
          arguments: ["'; DROP TABLE Note; --", "%", "_", #"\"#, #"""#])
    func catalogSearch(term: String) async throws {
        let (shell, screen) = try await Fixtures.demo()
        try shell.navigate(to: "/catalog")
        try screen.type(term)
        #expect(screen.table?.container.flatCount == 0, "a LIKE wildcard would have matched every genre")
        try screen.type("-")
        #expect(screen.table?.render().count == 6, "the six hyphenated genres")
        try screen.type("")
        #expect(screen.table?.container.flatCount == 214)
    }

    @Test("notes titled and written with metacharacters are saved, listed, searched and read back verbatim")
    func notesRoundTrip() async throws {
        let url = Fixtures.temporaryStoreURL()
        let expected = Self.notes.map { "\($0.title) | \($0.body)" }
        do {
            let (shell, screen) = try await Fixtures.demo(storeURL: url)
            try shell.navigate(to: "/notes")
            for (count, note) in Self.notes.enumerated() {
                try screen.pressPageAction("new")
                try screen.fill("title", with: note.title)
                try screen.fill("body", with: note.body)
                try screen.press("save")
                #expect(await eventually { screen.page?.values.path == "/notes" && screen.table?.container.flatCount == count + 1 },
                        "saved \(note.title)")
            }
            #expect(Set(screen.table?.render() ?? []) == Set(expected))
        }

        let (shell, screen) = try await Fixtures.demo(storeURL: url)
        try shell.navigate(to: "/notes")
        #expect(Set(screen.table?.render() ?? []) == Set(expected), "read back from the file, every note intact")
        for (term, found) in [("%", "100% sure | %"), ("_", "snake_case | _"), (#"\"#, #"C:\path\to | \"#),
                              ("'", "'; DROP TABLE Note; -- | x' OR '1'='1"), ("DELETE", #"say "hi" | "); DELETE FROM Note; --"#)] {
            try screen.type(term)
            #expect(screen.table?.render() == [found], "search \(term)")
        }
        try screen.type("")
        #expect(screen.table?.container.flatCount == Self.notes.count)

        let titleRow = try #require(screen.table?.render().firstIndex { $0.hasPrefix("'; DROP") })
        try screen.click(row: titleRow)
        #expect(screen.form?.values == ["title": "'; DROP TABLE Note; --", "body": "x' OR '1'='1"], "the editor shows the exact text")
    }
}
