import Foundation
import TrellisCore

extension Resources {
    /// Finds the compiled translations (`<dir>/<lang>/LC_MESSAGES/trellis.mo`).
    ///
    /// Search order, as for ``dataDirectory(environment:executable:)``: `$TRELLIS_LOCALE_DIR`;
    /// `<prefix>/share/locale` where the executable is `<prefix>/bin/trellis` (what
    /// `meson install` writes); then a `locale` folder in any ancestor of the executable's
    /// folder (`.build/locale`, where the README's commands compile `data/po/*.po` for SwiftPM
    /// runs). A folder counts only when it holds a `trellis.mo`. `nil` when none does: the
    /// interface stays English.
    public static func localeDirectory(environment: [String: String] = ProcessEnvironment.current,
                                       executable: URL = RunningExecutable.url) -> URL? {
        var candidates: [URL] = []
        if let dir = environment["TRELLIS_LOCALE_DIR"], !dir.isEmpty { candidates.append(URL(fileURLWithPath: dir)) }
        let binDir = executable.deletingLastPathComponent()
        candidates.append(binDir.deletingLastPathComponent().appendingPathComponent("share/locale"))
        var dir = binDir
        while dir.path != "/" && !dir.path.isEmpty {
            candidates.append(dir.appendingPathComponent("locale"))
            dir = dir.deletingLastPathComponent()
        }
        return candidates.first(where: holdsCatalogue)?.standardizedFileURL
    }

    /// Whether `directory` holds a compiled catalogue of Trellis for at least one language.
    static func holdsCatalogue(_ directory: URL) -> Bool {
        guard let languages = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return false }
        return languages.contains { language in
            FileManager.default.fileExists(atPath: directory.appendingPathComponent(language)
                .appendingPathComponent("LC_MESSAGES/\(Localization.domain).mo").path)
        }
    }
}
