import Foundation
#if canImport(Glibc)
import CGettext
import Glibc
#endif

/// User-interface translations through GNU gettext (libc's `dgettext`), with English source
/// strings: every string shown to people is written in English and wrapped in `tr(_:)`.
///
/// Two catalogues, two gettext domains: Trellis's own strings (the window's Back and Search,
/// the plugin pages) are in the ``domain`` `trellis` (`data/po/`), an app's strings in the
/// app's own ``appDomain``, its application id by default (the demo's are in `data/po-demo/`,
/// compiled to `<locale>/<lang>/LC_MESSAGES/io.github.trellis.Demo.mo`). `tr(_:)` looks in the
/// app's catalogue first, then in Trellis's, so an app may also re-word a Trellis string.
///
/// ```swift
/// Localization.setUp(localeDirectory: URL(fileURLWithPath: "/usr/share/locale"),
///                    applicationID: "org.example.Notes")   // the app's strings: org.example.Notes.mo
/// title = tr("Catalog")                                   // "Каталог" under LANGUAGE=ru
/// content = .text(tr("There is no genre number %@", values.parameters["id"] ?? ""))  // arguments replace %@ in order
/// let waiting = trn("%@ change waiting", "%@ changes waiting", count: 3, "3")   // a number's forms: "3 changes waiting"
/// ```
///
/// A text that depends on a number goes through `trn(_:_:count:_:)` (gettext's `ngettext`):
/// English has a form for 1 and one for the rest, Russian three, and a catalogue gives
/// as many as its `Plural-Forms` header says (`msgid_plural`, `msgstr[0]` …). Extraction finds
/// both with `xgettext --keyword=trn:1,2`.
///
/// The language follows the usual variables (`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`). One
/// addition: gettext ignores `LANGUAGE` in the "C" locale, so when no locale is set but
/// `LANGUAGE` is, messages use the always-present `C.UTF-8` locale and `LANGUAGE` applies —
/// `LANGUAGE=ru trellis` shows Russian even in a bare container.
public enum Localization {
    /// The gettext domain of Trellis's own strings.
    public static let domain = "trellis"

    /// The app's gettext domain, set by ``setUp(localeDirectory:applicationID:appDomain:category:)``;
    /// `nil` until then (strings are looked up in ``domain`` only).
    public static var appDomain: String? { appDomainState.withLock { $0 } }
    private static let appDomainState = LockedState<String?>(nil)

    /// Sets the locale of `category` (`LC_MESSAGES` by default, `LC_ALL` for a GTK program)
    /// from the environment, then binds ``domain`` and the app's domain to `localeDirectory`
    /// in UTF-8. The app's domain is `appDomain`, else `applicationID`; with neither, the app's
    /// strings are looked up in ``domain`` alone. Without a directory, strings stay English
    /// (unless a system-wide catalogue exists).
    public static func setUp(localeDirectory: URL?, applicationID: String? = nil, appDomain: String? = nil,
                             category: Int32 = LC_MESSAGES) {
        setLocaleFromEnvironment(category: category)
        let app = appDomain ?? applicationID
        appDomainState.withLock { $0 = app }
        #if canImport(Glibc)
        for bound in [domain] + (app.map { [$0] } ?? []) {
            if let localeDirectory { bindtextdomain(bound, localeDirectory.path) }
            bind_textdomain_codeset(bound, "UTF-8")
        }
        #endif
    }

    /// Sets the locale of `category` from the environment, with the `LANGUAGE` fallback
    /// described above. Idempotent.
    public static func setLocaleFromEnvironment(category: Int32 = LC_MESSAGES,
                                                environment: [String: String] = ProcessEnvironment.current) {
        #if canImport(Glibc)
        setlocale(category, "")
        let messages = setlocale(LC_MESSAGES, nil).map { String(cString: $0) } ?? "C"
        if messages == "C" || messages == "POSIX", !(environment["LANGUAGE"] ?? "").isEmpty {
            setlocale(LC_MESSAGES, "C.UTF-8")
        }
        #endif
    }

    /// The gettext domain of plugin `id`'s own catalogue: `trellis-plugin-<id>`, compiled to
    /// `<plugin folder>/locale/<lang>/LC_MESSAGES/trellis-plugin-<id>.mo`.
    public static func pluginDomain(_ id: String) -> String { "trellis-plugin-\(id)" }

    /// Binds plugin `id`'s domain to `localeDirectory` (its folder's `locale`), in UTF-8.
    public static func bindPlugin(_ id: String, localeDirectory: URL) {
        #if canImport(Glibc)
        bindtextdomain(pluginDomain(id), localeDirectory.path)
        bind_textdomain_codeset(pluginDomain(id), "UTF-8")
        #endif
        boundPlugins.withLock { _ = $0.insert(id) }
    }

    /// The plugins whose domain ``bindPlugin(_:localeDirectory:)`` bound: only they have a
    /// catalogue of their own. (Asking gettext for another's would look for it in the system's
    /// locale folder, three failed opens per plugin.)
    private static let boundPlugins = LockedState<Set<String>>([])

    /// A text of plugin `plugin`'s manifest (a title, a setting's description): its own
    /// catalogue's translation, else the app's, else `english`.
    public static func translate(_ english: String, plugin: String) -> String {
        if boundPlugins.withLock({ $0.contains(plugin) }) {
            let own = translate(english, domain: pluginDomain(plugin))
            if own != english { return own }
        }
        return translate(english)
    }

    /// The translation of `english` in the current language: the app's catalogue's
    /// (``appDomain``), else Trellis's (``domain``), else `english` itself.
    public static func translate(_ english: String) -> String {
        if let app = appDomain {
            let own = translate(english, domain: app)
            if own != english { return own }
        }
        return translate(english, domain: domain)
    }

    /// The translation of a text that depends on a number: the app's catalogue's form for
    /// `count` (``appDomain``), else Trellis's (``domain``), else `singular` for 1 and
    /// `plural` for any other count, as English has it. Languages differ in how many forms
    /// they have and when each is used (Russian has three): the catalogue's `Plural-Forms`
    /// header tells gettext.
    public static func translate(_ singular: String, plural: String, count: Int) -> String {
        if let app = appDomain, let own = translate(singular, plural, count, domain: app) { return own }
        return translate(singular, plural, count, domain: domain) ?? (count == 1 ? singular : plural)
    }

    private static func translate(_ singular: String, _ plural: String, _ count: Int, domain: String) -> String? {
        #if canImport(Glibc)
        // dngettext returns one of its arguments when there is no translation: compare before
        // the temporary C strings go away, and copy a translation out of the catalogue.
        return singular.withCString { one in
            plural.withCString { other in
                guard let translated = dngettext(domain, one, other, UInt(clamping: count)),
                      UnsafePointer(translated) != one, UnsafePointer(translated) != other else { return nil }
                return String(cString: translated)
            }
        }
        #else
        return nil
        #endif
    }

    private static func translate(_ english: String, domain: String) -> String {
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
/// let back = tr("Back")                                  // "Назад" under LANGUAGE=ru
/// let missing = tr("There is no genre number %@", "999") // "Жанра с номером 999 нет" (the demo)
/// ```
public func tr(_ english: String, _ arguments: String...) -> String {
    let translated = Localization.translate(english)
    return arguments.isEmpty ? translated : Localization.format(translated, arguments)
}

/// The translation of an English string that depends on the number `count` (see
/// ``Localization/translate(_:plural:count:)``): `singular` for 1 and `plural` otherwise in
/// English, the catalogue's form for `count` in other languages; then each `%@` is replaced by
/// the next argument, as with ``tr(_:_:)``.
///
/// ```swift
/// let waiting = trn("%@ change waiting", "%@ changes waiting", count: 3, "3")  // "3 changes waiting"
/// let one = trn("%@ change waiting", "%@ changes waiting", count: 1, "1")      // "1 change waiting"
/// ```
public func trn(_ singular: String, _ plural: String, count: Int, _ arguments: String...) -> String {
    let translated = Localization.translate(singular, plural: plural, count: count)
    return arguments.isEmpty ? translated : Localization.format(translated, arguments)
}
