import Foundation
import Testing
import TrellisCore
import TrellisDemo

/// The Russian catalogue covers every string the sources translate, and the app finds compiled
/// catalogues where the README's commands and `meson install` put them.
@Suite("Translations")
struct CatalogueTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../..").standardizedFileURL

    /// Every `tr("…")` literal in `Sources`, by file (doc comments excluded).
    static func translatedStrings() throws -> [String: Set<String>] {
        let sources = root.appendingPathComponent("Sources")
        var result: [String: Set<String>] = [:]
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        for file in files {
            let code = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
                .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("///") }.joined(separator: "\n")
            let strings = code.matches(of: /\btr\("((?:[^"\\]|\\.)*)"/).map { String($0.1) }
            if !strings.isEmpty {
                result[String(file.standardizedFileURL.path.dropFirst(root.path.count + 1)), default: []].formUnion(strings)
            }
        }
        return result
    }

    /// msgid → msgstr of a .po file (single-line entries, as the catalogue is written).
    static func catalogue(_ language: String) throws -> [String: String] {
        let text = try String(contentsOf: root.appendingPathComponent("data/po/\(language).po"), encoding: .utf8)
        var result: [String: String] = [:]
        for match in text.matches(of: /msgid "((?:[^"\\]|\\.)*)"\nmsgstr "((?:[^"\\]|\\.)*)"/) where !match.1.isEmpty {
            result[String(match.1)] = String(match.2)
        }
        return result
    }

    @Test("every translated string of the sources has a Russian translation with the same %@ markers")
    func russianIsComplete() throws {
        let russian = try Self.catalogue("ru")
        let strings = try Self.translatedStrings().values.reduce(into: Set<String>()) { $0.formUnion($1) }
        #expect(strings.count >= 20)
        for english in strings.sorted() {
            let translation = try #require(russian[english], "data/po/ru.po has no translation of \"\(english)\"")
            #expect(!translation.isEmpty, "empty translation of \"\(english)\"")
            #expect(translation.components(separatedBy: "%@").count == english.components(separatedBy: "%@").count,
                    "\"\(translation)\" has not the %@ markers of \"\(english)\"")
        }
    }

    @Test("POTFILES lists every source file with translated strings, so extraction finds them all")
    func potfilesComplete() throws {
        let listed = Set(try String(contentsOf: Self.root.appendingPathComponent("data/po/POTFILES"), encoding: .utf8)
            .split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") })
        let needed = Set(try Self.translatedStrings().keys)
        #expect(needed.subtracting(listed).isEmpty, "missing from POTFILES: \(needed.subtracting(listed).sorted())")
        #expect(listed.subtracting(needed).isEmpty, "in POTFILES without translated strings: \(listed.subtracting(needed).sorted())")
    }

    @Test("compiled catalogues are found from $TRELLIS_LOCALE_DIR, <prefix>/share/locale, or a locale folder above the build")
    func localeDirectorySearch() throws {
        let tree = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-locale-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: tree) }
        func catalogue(in dir: String) throws {
            let folder = tree.appendingPathComponent(dir).appendingPathComponent("ru/LC_MESSAGES")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data().write(to: folder.appendingPathComponent("trellis.mo"))
        }
        let built = tree.appendingPathComponent("src/.build/x86_64-unknown-linux-gnu/debug/trellis")
        let installed = tree.appendingPathComponent("prefix/bin/trellis")
        #expect(Resources.localeDirectory(environment: [:], executable: built) == nil, "no catalogue anywhere: English")
        try FileManager.default.createDirectory(at: tree.appendingPathComponent("prefix/share/locale/de"), withIntermediateDirectories: true)
        #expect(Resources.localeDirectory(environment: [:], executable: installed) == nil, "a locale folder without trellis.mo does not count")
        try catalogue(in: "src/.build/locale")
        try catalogue(in: "prefix/share/locale")
        try catalogue(in: "elsewhere")
        #expect(Resources.localeDirectory(environment: [:], executable: built)?.path == tree.appendingPathComponent("src/.build/locale").path)
        #expect(Resources.localeDirectory(environment: [:], executable: installed)?.path
                == tree.appendingPathComponent("prefix/share/locale").path)
        #expect(Resources.localeDirectory(environment: ["TRELLIS_LOCALE_DIR": tree.appendingPathComponent("elsewhere").path],
                                          executable: installed)?.path == tree.appendingPathComponent("elsewhere").path)
    }
}
