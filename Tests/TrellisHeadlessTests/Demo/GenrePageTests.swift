import Testing
import TrellisCore
import TrellisHeadless

/// A genre's page says where the genre is in the catalog in plain words.
@MainActor
@Suite("Genre page")
struct GenrePageTests {
    @Test("a genre shows its position out of the catalog's length")
    func position() async throws {
        let (shell, screen) = try await Fixtures.demo()
        let count = try Fixtures.catalog().count
        try shell.navigate(to: "/catalog/5")
        let lines = screen.render().split(separator: "\n").map(String.init)
        #expect(lines.contains("Genre: Фэнтези"))
        #expect(lines.contains("Position in the catalog: 6 of \(count)"), "\(lines)")
        #expect(!lines.contains { $0.hasPrefix("Also in the catalog at") }, "the name is listed once")
    }

    @Test("a name the catalog repeats names its other positions")
    func repeatedName() async throws {
        let (shell, screen) = try await Fixtures.demo()
        try shell.navigate(to: "/catalog/94")
        let lines = screen.render().split(separator: "\n").map(String.init)
        #expect(lines.contains("Genre: Бизнес"), "\(lines)")
        #expect(lines.contains("Also in the catalog at: 35, 108"), "\(lines)")
    }
}
