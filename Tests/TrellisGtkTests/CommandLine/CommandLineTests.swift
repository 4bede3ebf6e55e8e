import Foundation
import Testing

/// The `trellis` command line, run as a process: version, help, headless pages, notification
/// payloads, translations.
@Suite("trellis command line")
struct CommandLineTests {
    private func trellis(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult {
        try CommandRunner.run(AppDriver.executable, arguments, environment: environment)
    }

    private func file(_ name: String) throws -> String {
        try String(contentsOf: CommandRunner.packageRoot.appendingPathComponent(name), encoding: .utf8)
    }

    @Test("--version prints the version meson.build and the metainfo's latest release give")
    func version() throws {
        let result = try trellis(["--version"])
        #expect(result.status == 0)
        let version = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let meson = try #require(try file("meson.build").firstMatch(of: /project\('trellis', version: '([^']+)'/)).1
        let release = try #require(try file("data/io.github.trellis.Demo.metainfo.xml").firstMatch(of: /<release version="([^"]+)"/)).1
        #expect(version == String(meson))
        #expect(version == String(release))
    }

    @Test("trellis does not load FoundationNetworking or libcurl at start: sync opens libTrellisHTTP.so on its first request")
    func noNetworkingLibrariesAtStart() throws {
        let libraries = try CommandRunner.tool("ldd", [AppDriver.executable.path])
        #expect(libraries.status == 0, "\(libraries.stderr)")
        #expect(libraries.stdout.contains("libgtk-4"), "ldd listed the executable's libraries")
        #expect(!libraries.stdout.contains("libFoundationNetworking"), "\(libraries.stdout)")
        #expect(!libraries.stdout.contains("libcurl"), "\(libraries.stdout)")
        let transport = AppDriver.executable.deletingLastPathComponent().appendingPathComponent("libTrellisHTTP.so")
        #expect(FileManager.default.fileExists(atPath: transport.path), "the build makes the transport library beside it")
    }

    @Test("--help lists the commands; the open command's help names --notification")
    func help() throws {
        let root = try trellis(["--help"])
        #expect(root.status == 0)
        #expect(root.stdout.contains("open (default)") && root.stdout.contains("routes"))
        let open = try trellis(["help", "open"])
        #expect(open.stdout.contains("--notification <file.json>"), "\(open.stdout)")
        #expect(!open.stdout.contains("--application-id"), "test-only options stay hidden")
    }

    @Test("--headless --notification opens show-view and prints that page")
    func headlessNotification() throws {
        let payload = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-push-\(UUID().uuidString).json")
        try Data(#"{"aps": {"alert": {"body": "x", "show-view": "/catalog/5"}, "badge": 1}}"#.utf8).write(to: payload)
        defer { try? FileManager.default.removeItem(at: payload) }
        let result = try trellis(["--headless", "--notification", payload.path, "/people"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("< Фэнтези\n"), "\(result.stdout)")
    }

    @Test("opening the window on a file that is not a database fails with its name, opens no window and leaves the file alone")
    func windowRefusesForeignFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-bad-db-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("notes.sqlite")
        let contents = Data("these are my notes, not a database\n".utf8)
        try contents.write(to: database)
        // The store opens on a second thread while GTK starts: its failure must still end
        // the command, with the message, before any window is shown.
        let result = try trellis(["--database", database.path, "--exit-after-first-frame", "/"],
                                 environment: ["XDG_DATA_HOME": folder.appendingPathComponent("data").path,
                                               "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("not a database: \(database.path)"), "\(result.stderr)")
        #expect(try Data(contentsOf: database) == contents)
    }

    @Test("a malformed payload stops the launch with a message naming the file and the key",
          arguments: [(#"{"aps": {"sound": 3}}"#, "aps.sound must be a string, not the number 3"),
                      (#"{"aps": {"alert": {"body": "x", "show-view": 2}}}"#, "aps.alert.show-view must be true, false or a route path"),
                      (#"{"aps": {"content-available": "yes"}}"#, "aps.content-available must be the number 0 or 1"),
                      (#"{aps}"#, "the notification payload is not valid JSON")])
    func malformedPayload(_ example: (json: String, message: String)) throws {
        let payload = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-push-\(UUID().uuidString).json")
        try Data(example.json.utf8).write(to: payload)
        defer { try? FileManager.default.removeItem(at: payload) }
        let result = try trellis(["--headless", "--notification", payload.path])
        #expect(result.status != 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("\(payload.path): \(example.message)"), "\(result.stderr)")
    }

    @Test("LANGUAGE=ru prints the pages in Russian, even with no locale set, and a number's texts in its plural form")
    func russian() throws {
        let locale = try CommandRunner.compileTranslations()
        defer { try? FileManager.default.removeItem(at: locale) }
        let environment = ["LANGUAGE": "ru", "LANG": "", "LC_ALL": "", "TRELLIS_LOCALE_DIR": locale.path]
        let home = try trellis(["--headless", "/"], environment: environment)
        let homeLines = home.stdout.split(separator: "\n").dropFirst(2)
        // Each section with its summary, both from the demo's catalogue.
        #expect(homeLines.prefix(7) == ["Каталог | Жанры книг, поиск по мере ввода",
                                        "Избранное | Отметьте жанры, которые вам нравятся",
                                        "Заметки | Пишите и синхронизируйте заметки",
                                        "Заметки по дням | Сколько заметок написано за каждый день",
                                        "Люди | Таблица с сортировкой по столбцам",
                                        "Модули | Права и настройки каждого плагина",
                                        "Журнал событий | Что прошло через шину событий"])
        // The status line: the Location plugin's item, which it sets while it loads, under its Russian title.
        #expect(homeLines.dropFirst(7).allSatisfy { $0.hasPrefix("-- Местоположение: ") }, "\(homeLines)")
        let perDay = try trellis(["--headless", "/notes-per-day"], environment: environment)
        #expect(perDay.stdout.split(separator: "\n").prefix(3).map(String.init) == ["< Заметки по дням", String(repeating: "=", count: 17), "Заметок пока нет."],
                "the demo's strings, from its own catalogue: \(perDay.stdout)")
        let genre = try trellis(["--headless", "/catalog/5"], environment: environment)
        #expect(genre.stdout.contains("Жанр: Фэнтези") && genre.stdout.contains("(Добавить в избранное)"), "\(genre.stdout)")
        let english = try trellis(["--headless", "/"], environment: ["TRELLIS_LOCALE_DIR": locale.path, "LANGUAGE": "", "LANG": "C.UTF-8"])
        #expect(english.stdout.contains("Catalog"))
        // A text that depends on a number takes the language's form for it (gettext's plurals):
        // Russian's "many" form for 0. Nothing listens on port 1 of the loopback: the sync is offline.
        let offline = try trellis(["--headless", "--server", "http://127.0.0.1:1/", "/"], environment: environment)
        #expect(offline.stdout.contains("-- Синхронизация: нет связи, в очереди 0 изменений"), "\(offline.stdout)")
        let offlineInEnglish = try trellis(["--headless", "--server", "http://127.0.0.1:1/", "/"],
                                           environment: ["TRELLIS_LOCALE_DIR": locale.path, "LANGUAGE": "", "LANG": "C.UTF-8"])
        #expect(offlineInEnglish.stdout.contains("-- Sync: offline, 0 changes waiting"), "\(offlineInEnglish.stdout)")
    }
}
