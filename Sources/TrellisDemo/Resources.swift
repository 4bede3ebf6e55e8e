import Foundation
import TrellisCore

/// Finds the demo's data files (`data/` in the source tree, `share/trellis/data` when installed).
///
/// Search order: `$TRELLIS_DATA_DIR`; `<prefix>/share/trellis/data` where the executable is
/// `<prefix>/bin/trellis`; then every ancestor of the executable's folder that holds
/// `data/catalog-genres.ru.txt` (a SwiftPM build inside the source tree).
public enum Resources {
    public static let catalogFile = "catalog-genres.ru.txt"

    public enum Failure: Error, CustomStringConvertible {
        case dataDirectoryNotFound(searched: [String])
        case unreadable(path: String, reason: String)

        public var description: String {
            switch self {
            case .dataDirectoryNotFound(let searched):
                return "Trellis data folder not found (looked in: \(searched.joined(separator: ", "))); set TRELLIS_DATA_DIR"
            case .unreadable(let path, let reason):
                return "\(path): cannot read: \(reason)"
            }
        }
    }

    /// The data folder, or an error listing every place searched.
    public static func dataDirectory(environment: [String: String] = ProcessEnvironment.current,
                                     executable: URL = RunningExecutable.url) throws -> URL {
        var candidates: [URL] = []
        if let dir = environment["TRELLIS_DATA_DIR"], !dir.isEmpty { candidates.append(URL(fileURLWithPath: dir)) }
        let binDir = executable.deletingLastPathComponent()
        candidates.append(binDir.deletingLastPathComponent().appendingPathComponent("share/trellis/data"))
        var dir = binDir
        while dir.path != "/" {
            candidates.append(dir.appendingPathComponent("data"))
            dir = dir.deletingLastPathComponent()
        }
        for candidate in candidates
        where FileManager.default.fileExists(atPath: candidate.appendingPathComponent(catalogFile).path) {
            return candidate.standardizedFileURL
        }
        throw Failure.dataDirectoryNotFound(searched: candidates.map(\.path))
    }

    /// The genre catalog: one name per non-empty line, in file order (duplicates kept).
    public static func loadCatalog(from directory: URL) throws -> [String] {
        let url = directory.appendingPathComponent(catalogFile)
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw Failure.unreadable(path: url.path, reason: error.localizedDescription)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw Failure.unreadable(path: url.path, reason: "not UTF-8 text")
        }
        // By Unicode scalar, with the separators `Character.isNewline` and `isWhitespace` name:
        // splitting the text into `Character`s (grapheme clusters) took 2.3 M instructions of
        // the start-up thread's 24 M for these 214 lines, Foundation's `trimmingCharacters(in:)`
        // more.
        return text.unicodeScalars.split(whereSeparator: Self.isNewline).compactMap { line in
            guard let first = line.firstIndex(where: { !$0.properties.isWhitespace }),
                  let last = line.lastIndex(where: { !$0.properties.isWhitespace }) else { return nil }
            return String(Substring(line[first...last]))
        }
    }

    /// The line separators of `Character.isNewline`: LF, VT, FF, CR, NEL, LS and PS.
    private static func isNewline(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return true
        default: return false
        }
    }
}
