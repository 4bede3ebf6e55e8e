import Foundation
#if canImport(Glibc)
import CGettext
import Glibc
#endif

/// User-interface translations through GNU gettext (libc's `dgettext`), with English source
/// strings: every string shown to people is written in English and wrapped in `tr(_:)`;
/// the catalogues live in `data/po/` (`ru.po`), compiled to `<locale>/<lang>/LC_MESSAGES/trellis.mo`.
///
/// ```swift
/// Localization.setUp(localeDirectory: URL(fileURLWithPath: "/usr/share/locale"))
/// title = tr("Catalog")                                   // "Каталог" under LANGUAGE=ru
/// content = .text(tr("There is no genre number %@", id))  // arguments replace %@ in order
/// ```
///
/// The language follows the usual variables (`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`). One
/// addition: gettext ignores `LANGUAGE` in the "C" locale, so when no locale is set but
/// `LANGUAGE` is, messages use the always-present `C.UTF-8` locale and `LANGUAGE` applies —
/// `LANGUAGE=ru trellis` shows Russian even in a bare container.
public enum Localization {
    /// The gettext domain of every Trellis string (framework and demo).
    public static let domain = "trellis"

    /// Sets the locale of `category` (`LC_MESSAGES` by default, `LC_ALL` for a GTK program)
    /// from the environment, then binds ``domain`` to `localeDirectory` in UTF-8. Without a
    /// directory, strings stay English (unless a system-wide catalogue exists).
    public static func setUp(localeDirectory: URL?, category: Int32 = LC_MESSAGES) {
        setLocaleFromEnvironment(category: category)
        #if canImport(Glibc)
        if let localeDirectory { bindtextdomain(domain, localeDirectory.path) }
        bind_textdomain_codeset(domain, "UTF-8")
        #endif
    }

    /// Sets the locale of `category` from the environment, with the `LANGUAGE` fallback
    /// described above. Idempotent.
    public static func setLocaleFromEnvironment(category: Int32 = LC_MESSAGES,
                                                environment: [String: String] = ProcessInfo.processInfo.environment) {
        #if canImport(Glibc)
        setlocale(category, "")
        let messages = setlocale(LC_MESSAGES, nil).map { String(cString: $0) } ?? "C"
        if messages == "C" || messages == "POSIX", !(environment["LANGUAGE"] ?? "").isEmpty {
            setlocale(LC_MESSAGES, "C.UTF-8")
        }
        #endif
    }

    /// The translation of `english` in the current language (`english` itself when there is none).
    public static func translate(_ english: String) -> String {
        #if canImport(Glibc)
        guard !english.isEmpty else { return english }
        // dgettext returns its argument when there is no translation: compare before the
        // temporary C string goes away, and copy a translation out of the catalogue.
        return english.withCString { msgid in
            guard let translated = dgettext(domain, msgid), translated != msgid else { return english }
            return String(cString: translated)
        }
        #else
        return english
        #endif
    }

    /// Replaces each `%@` of `template` by the next of `arguments`, in order.
    public static func format(_ template: String, _ arguments: [String]) -> String {
        var remaining = arguments[...]
        var result = ""
        var rest = template[...]
        while let marker = rest.range(of: "%@"), let argument = remaining.popFirst() {
            result += rest[..<marker.lowerBound] + argument
            rest = rest[marker.upperBound...]
        }
        return result + rest
    }
}

/// The translation of an English user-interface string (see ``Localization``); each `%@` is
/// replaced by the next argument *after* translation, so translators may move it.
///
/// ```swift
/// tr("Back")                                // "Назад" under LANGUAGE=ru
/// tr("There is no genre number %@", "999")
/// ```
public func tr(_ english: String, _ arguments: String...) -> String {
    let translated = Localization.translate(english)
    return arguments.isEmpty ? translated : Localization.format(translated, arguments)
}
