import Foundation
import Testing
import TrellisCore
import TrellisDemo

/// The Russian catalogues cover every string the sources translate, each in its domain —
/// Trellis's own strings in `data/po` (`trellis`), the demo app's in `data/po-demo` (its
/// application id) — and the app finds compiled catalogues where the README's commands and
/// `meson install` put them.
@Suite("Translations")
struct CatalogueTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../..").standardizedFileURL

    /// Every Swift file of `Sources`, by path from the package, without its doc comments.
    static func sources() throws -> [String: String] {
        let sources = root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        var result: [String: String] = [:]
        for file in files {
            result[String(file.standardizedFileURL.path.dropFirst(root.path.count + 1))] =
                try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
                    .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("///") }.joined(separator: "\n")
        }
        return result
    }

    /// Every `tr("…")` literal in `Sources`, by file (doc comments excluded).
    static func translatedStrings() throws -> [String: Set<String>] {
        try sources().compactMapValues { code in
            let strings = code.matches(of: /\btr\("((?:[^"\\]|\\.)*)"/).map { String($0.1) }
            return strings.isEmpty ? nil : Set(strings)
        }
    }

    /// Every `trn("…", "…"` pair of literals in `Sources` (the English singular and plural), by file.
    static func pluralStrings() throws -> [String: [(singular: String, plural: String)]] {
        try sources().compactMapValues { code in
            let pairs = code.matches(of: /\btrn\("((?:[^"\\]|\\.)*)",\s*"((?:[^"\\]|\\.)*)"/).map { (String($0.1), String($0.2)) }
            return pairs.isEmpty ? nil : pairs
        }
    }

    /// The `trn` pairs of the sources whose catalogue is in `folder`.
    static func pluralStrings(for folder: String) throws -> [(singular: String, plural: String)] {
        try pluralStrings().filter { Self.folder(of: $0.key) == folder }.values.flatMap { $0 }
    }

    /// msgid → (msgid_plural, the msgstr[n] forms) of the plural entries of a .po file.
    static func pluralCatalogue(_ language: String, in folder: String) throws -> [String: (plural: String, forms: [String])] {
        let text = try String(contentsOf: root.appendingPathComponent("\(folder)/\(language).po"), encoding: .utf8)
        var result: [String: (plural: String, forms: [String])] = [:]
        for match in text.matches(of: /msgid "((?:[^"\\]|\\.)*)"\nmsgid_plural "((?:[^"\\]|\\.)*)"\n((?:msgstr\[\d\] "(?:[^"\\]|\\.)*"\n)+)/) {
            let forms = String(match.3).matches(of: /msgstr\[\d\] "((?:[^"\\]|\\.)*)"/).map { String($0.1) }
            result[String(match.1)] = (String(match.2), forms)
        }
        return result
    }

    /// The catalogue folder of a source file: the demo app's (`data/po-demo`) for the demo's
    /// modules, Trellis's (`data/po`) for the rest.
    static func folder(of file: String) -> String {
        file.hasPrefix("Sources/TrellisDemo/") || file.hasPrefix("Sources/trellis/") ? "data/po-demo" : "data/po"
    }

    /// The translated strings of the sources whose catalogue is in `folder`.
    static func translatedStrings(for folder: String) throws -> [String: Set<String>] {
        try translatedStrings().filter { Self.folder(of: $0.key) == folder }
    }

    /// msgid → msgstr of a .po file (single-line entries, as the catalogue is written).
    static func catalogue(_ language: String, in folder: String) throws -> [String: String] {
        let text = try String(contentsOf: root.appendingPathComponent("\(folder)/\(language).po"), encoding: .utf8)
        var result: [String: String] = [:]
        for match in text.matches(of: /msgid "((?:[^"\\]|\\.)*)"\nmsgstr "((?:[^"\\]|\\.)*)"/) where !match.1.isEmpty {
            result[String(match.1)] = String(match.2)
        }
        return result
    }

    @Test("every translated string of the sources has a Russian translation in its domain's catalogue, with the same %@ markers",
          arguments: ["data/po", "data/po-demo"])
    func russianIsComplete(folder: String) throws {
        let russian = try Self.catalogue("ru", in: folder)
        let strings = try Self.translatedStrings(for: folder).values.reduce(into: Set<String>()) { $0.formUnion($1) }
        #expect(strings.count >= 20)
        for english in strings.sorted() {
            let translation = try #require(russian[english], "\(folder)/ru.po has no translation of \"\(english)\"")
            #expect(!translation.isEmpty, "empty translation of \"\(english)\"")
            #expect(translation.components(separatedBy: "%@").count == english.components(separatedBy: "%@").count,
                    "\"\(translation)\" has not the %@ markers of \"\(english)\"")
        }
    }

    @Test("every string that depends on a number (trn) has Russian's three forms in its domain's catalogue, each with the same %@ markers",
          arguments: ["data/po", "data/po-demo"])
    func russianPluralsAreComplete(folder: String) throws {
        let russian = try Self.pluralCatalogue("ru", in: folder)
        for (singular, plural) in try Self.pluralStrings(for: folder) {
            let entry = try #require(russian[singular], "\(folder)/ru.po has no plural entry for \"\(singular)\"")
            #expect(entry.plural == plural, "\(folder)/ru.po: the plural of \"\(singular)\" is \"\(entry.plural)\", the source says \"\(plural)\"")
            #expect(entry.forms.count == 3, "Russian has three forms (one, few, many): \(entry.forms)")
            for form in entry.forms {
                #expect(!form.isEmpty && form.components(separatedBy: "%@").count == singular.components(separatedBy: "%@").count,
                        "\"\(form)\" has not the %@ markers of \"\(singular)\"")
            }
        }
        if folder == "data/po-demo" { #expect(try Self.pluralStrings(for: folder).count >= 4) }
    }

    @Test("the demo app's own strings are not in Trellis's catalogue: an app translates in its own domain")
    func appStringsInTheAppsDomain() throws {
        let trellis = try Self.catalogue("ru", in: "data/po")
        let framework = try Self.translatedStrings(for: "data/po").values.reduce(into: Set<String>()) { $0.formUnion($1) }
        let appOnly = try Self.translatedStrings(for: "data/po-demo").values.reduce(into: Set<String>()) { $0.formUnion($1) }
            .subtracting(framework)
        #expect(appOnly.contains("Notes per day"))
        #expect(appOnly.filter { trellis[$0] != nil }.sorted() == [], "in data/po/ru.po, but only the demo uses them")
    }

    @Test("each domain's POTFILES lists every source file with translated strings, so extraction finds them all",
          arguments: ["data/po", "data/po-demo"])
    func potfilesComplete(folder: String) throws {
        let listed = Set(try String(contentsOf: Self.root.appendingPathComponent("\(folder)/POTFILES"), encoding: .utf8)
            .split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") })
        let needed = Set(try Self.translatedStrings(for: folder).keys)
            .union(try Self.pluralStrings().keys.filter { Self.folder(of: $0) == folder })
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
