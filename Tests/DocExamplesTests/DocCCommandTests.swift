import Foundation
import Testing

/// The README's DocC command builds every catalog, and "Writing the docs" gives the same command.
@Suite("Docs: the DocC command")
struct DocCCommandTests {
    static let repository = DocExamplesAreCurrentTests.repository

    /// The `swift package generate-documentation …` line of `file`.
    static func command(in file: String) throws -> String? {
        let text = try String(contentsOf: repository.appendingPathComponent(file), encoding: .utf8)
        return text.split(separator: "\n").first { $0.hasPrefix("swift package generate-documentation ") }.map(String.init)
    }

    @Test("the README's DocC command has a --target for every module with a catalog, and builds them combined")
    func everyCatalogIsBuilt() throws {
        let command = try #require(try Self.command(in: "README.md"))
        let words = command.split(separator: " ")
        let targets = Set(zip(words, words.dropFirst()).filter { $0.0 == "--target" }.map { String($0.1) })
        let sources = Self.repository.appendingPathComponent("Sources")
        let catalogs = Set(try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { module in
            FileManager.default.fileExists(atPath: sources.appendingPathComponent("\(module)/\(module).docc").path)
        })
        #expect(targets == catalogs, "targets without a catalog: \(targets.subtracting(catalogs).sorted()); catalogs not built: \(catalogs.subtracting(targets).sorted())")
        // Combined, the plugin articles' links to /TrellisShared/JSONValue/… resolve.
        #expect(words.contains("--enable-experimental-combined-documentation"))
    }

    @Test("Writing the docs gives the README's DocC command")
    func writingTheDocsAgrees() throws {
        let article = try #require(try Self.command(in: "Sources/TrellisCore/TrellisCore.docc/WritingTheDocs.md"))
        let readme = try Self.command(in: "README.md")
        #expect(article == readme)
    }
}
