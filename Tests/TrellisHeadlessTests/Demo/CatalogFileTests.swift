import Foundation
import Testing
import TrellisDemo

/// The demo's genre catalogue file: one name per line, spaces around a name dropped, blank
/// lines skipped, duplicates and file order kept; a file that is not UTF-8 is refused by name.
@Suite("The demo's catalogue file")
struct CatalogFileTests {
    private static func folder(holding bytes: [UInt8]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(bytes).write(to: folder.appendingPathComponent(Resources.catalogFile))
        return folder
    }

    @Test("names are trimmed, blank lines skipped, duplicates and order kept")
    func lines() throws {
        let text = "  Фэнтези \n\n\tПроза\t\r\n \u{00A0}\n Проза\u{2028}Поэзия в прозе\u{2003}"
        let folder = try Self.folder(holding: Array(text.utf8))
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try Resources.loadCatalog(from: folder) == ["Фэнтези", "Проза", "Проза", "Поэзия в прозе"])
    }

    @Test("a file that is not UTF-8 is refused, naming it")
    func notUTF8() throws {
        let folder = try Self.folder(holding: [0x41, 0xFF, 0xFE, 0x0A])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect { try Resources.loadCatalog(from: folder) } throws: { error in
            "\(error)".contains(Resources.catalogFile) && "\(error)".contains("not UTF-8")
        }
    }
}
