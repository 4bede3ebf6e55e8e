import Foundation
import TrellisCore
import XCTest

/// The window's menu, keyboard, accessible names, badge and translations.
final class DesktopWindowTests: XCTestCase {
    func testThePrimaryMenuListsEveryActionWithItsKeys() throws {
        let app = try AppDriver()
        let items = try XCTUnwrap(try app.send("menu")["items"]?.arrayValue)
        let byAction = Dictionary(uniqueKeysWithValues: items.map { ($0["action"]?.stringValue ?? "", $0) })
        XCTAssertEqual(items.compactMap { $0["action"]?.stringValue },
                       ["win.back", "win.search", "win.go-catalog", "win.go-favourites", "win.go-notes", "win.go-notes-per-day",
                        "win.go-people", "win.go-plugins", "win.go-events", "win.new-note", "win.plugin-c-hello-greet", "win.plugin-c-hello-page-hello",
                        "win.plugin-location-page-location", "win.plugin-network-activity-page-network", "win.plugin-template-page-template",
                        "win.undo", "win.redo", "win.preferences", "win.shortcuts", "app.about", "app.quit"])
        XCTAssertEqual(byAction["win.go-notes"]?["label"], "Notes")
        XCTAssertEqual(byAction["win.go-notes"]?["accels"], ["<Alt>3"])
        XCTAssertEqual(byAction["win.go-notes-per-day"]?["label"], "Notes per day")
        XCTAssertEqual(byAction["win.go-notes-per-day"]?["accels"], ["<Alt>4"])
        XCTAssertEqual(byAction["win.back"]?["accels"], ["<Alt>Left", "Escape"])
        XCTAssertEqual(byAction["win.search"]?["accels"], ["<Control>f"])
        XCTAssertEqual(byAction["win.new-note"]?["accels"], ["<Control>n"])
        XCTAssertEqual(byAction["win.undo"]?["accels"], ["<Control>z"])
        XCTAssertEqual(byAction["win.redo"]?["accels"], ["<Shift><Control>z"])
        XCTAssertEqual(byAction["app.quit"]?["accels"], ["<Control>q"])
        XCTAssertEqual(byAction["win.preferences"]?["accels"], ["<Control>comma"])
        XCTAssertEqual(byAction["app.about"]?["label"], "About Trellis")
        XCTAssertEqual(byAction["win.shortcuts"]?["accels"], ["<Control>question", "F1"])
        try app.screenshot("menu-catalog")
        // Its popover is built on the first opening, not before the first frame.
        XCTAssertEqual(try app.send("menu-open")["open"], true)
        XCTAssertEqual(app.finish(), 0)
    }

    func testTheAppsIconIsFoundWhenRunFromTheBuildFolder() throws {
        let app = try AppDriver()
        XCTAssertEqual(try app.send("icon io.github.trellis.Demo")["found"], true, "the About dialog would show a missing icon")
        XCTAssertEqual(try app.send("icon no-such-icon-anywhere")["found"], false)
        XCTAssertEqual(app.finish(), 0)
    }

    func testTheWindowOpensOnTheHubWithNoBackArrow() throws {
        let app = try AppDriver(path: nil)
        let screen = try app.dump { $0["count"] == 7 }
        XCTAssertEqual(screen["path"], "/")
        XCTAssertEqual(screen["back"], false, "no Back arrow on the first screen")
        // Each section with what it holds: the sidebar beside it names them already.
        XCTAssertEqual(screen["rows"]?.arrayValue?.compactMap { $0["text"]?.stringValue },
                       ["Catalog · Book genres, searched as you type", "Favourites · Tick the genres you like",
                        "Notes · Write, edit and sync your notes", "Notes per day · How many notes were written each day",
                        "People · A table sorted by any of its columns", "Plugins · What each plugin may do, and its settings",
                        "Event log · What went through the event bus"])
        try app.screenshot("hub-first")
        XCTAssertEqual(app.finish(), 0)
    }

    func testEverySectionIsOneStepAwayAndBackLeadsToTheHub() throws {
        let app = try AppDriver(arguments: ["/catalog/5"])
        try app.send("action win.go-notes")
        XCTAssertEqual(try app.send("dump")["path"], "/notes")
        try app.send("back")
        XCTAssertEqual(try app.send("dump")["path"], "/", "Back from a section leads to the hub")
        try app.send("action win.go-events")
        XCTAssertEqual(try app.send("dump")["path"], "/events", "the event log, which no link may open, is in the menu")
        XCTAssertEqual(app.finish(), 0)
    }

    func testAboutOpensADialogOverTheWindow() throws {
        let app = try AppDriver()
        XCTAssertEqual(try app.send("dump")["dialogs"], [])
        try app.send("action app.about")
        XCTAssertEqual(try app.send("dump")["dialogs"], ["About Trellis"])
        XCTAssertEqual(app.finish(), 0)
    }

    func testIconOnlyButtonsHaveTooltipsAndAccessibleLabels() throws {
        let app = try AppDriver()
        let widgets = try XCTUnwrap(try app.send("chrome")["widgets"])
        let expected = ["back": "Back", "search": "Search", "menu": "Main menu", "spinner": "Working…"]
        for (name, tooltip) in expected {
            XCTAssertEqual(widgets[name]?["tooltip"]?.stringValue, tooltip, name)
            XCTAssertEqual(widgets[name]?["accessibleLabel"], true, "\(name) has no accessible label")
        }
        XCTAssertEqual(app.finish(), 0)
    }

    func testUndoAndRedoAreBusEventsAndNewNoteAsksForTheNoteEditor() throws {
        let app = try AppDriver()
        try app.send("action win.undo")
        try app.send("action win.redo")
        try app.send("action win.redo")
        try app.send("action win.new-note")
        try app.send("go /events")
        // Each line starts with the event's local time, "14:03:07  ".
        let log = try app.visibleRowTexts().map { String($0.dropFirst(10)) }
        XCTAssertEqual(log.filter { $0 == "edit:undo" }.count, 1, "\(log)")
        XCTAssertEqual(log.filter { $0 == "edit:redo" }.count, 2, "\(log)")
        XCTAssertTrue(log.contains { $0.hasPrefix("route:") && $0.contains(#""path":"/notes/new""#) },
                      "Ctrl+N navigates (or tries to navigate) to /notes/new: \(log)")
        XCTAssertEqual(app.finish(), 0)
    }

    func testALaunchNotificationSetsTheBadgeInTheTitleAndOpensItsPage() throws {
        let payload = try Self.payload(#"{"aps": {"alert": {"body": "Пять новых людей", "show-view": "/people"}, "badge": 5}}"#)
        defer { try? FileManager.default.removeItem(at: payload) }
        let app = try AppDriver(arguments: ["--notification", payload.path])
        var screen = try app.send("dump")
        XCTAssertEqual(screen["path"], "/people")
        XCTAssertEqual(screen["badge"], 5)
        XCTAssertEqual(screen["title"], "People (5)")
        try app.screenshot("badge")
        try app.send("back")
        XCTAssertEqual(try app.send("dump")["title"], "Catalog (5)", "the badge stays as pages change")
        try app.send(#"trigger badge:changed {"count": 0}"#)
        screen = try app.send("dump")
        XCTAssertEqual(screen["title"], "Catalog")
        XCTAssertEqual(screen["badge"], 0)
        XCTAssertEqual(app.finish(), 0)
    }

    /// Trellis's own strings (Back, Search, Undo) come from the `trellis` catalogue, the demo's
    /// (its sections, New note) from its own, `io.github.trellis.Demo`.
    func testUnderLanguageRuTheWindowIsInRussian() throws {
        let locale = try CommandRunner.compileTranslations()
        defer { try? FileManager.default.removeItem(at: locale) }
        let app = try AppDriver(arguments: ["/"], environment: ["LANGUAGE": "ru", "TRELLIS_LOCALE_DIR": locale.path])
        XCTAssertEqual(try app.visibleRowTexts(), ["Каталог · Жанры книг, поиск по мере ввода",
                                                   "Избранное · Отметьте жанры, которые вам нравятся",
                                                   "Заметки · Пишите и синхронизируйте заметки",
                                                   "Заметки по дням · Сколько заметок написано за каждый день",
                                                   "Люди · Таблица с сортировкой по столбцам",
                                                   "Модули · Права и настройки каждого плагина",
                                                   "Журнал событий · Что прошло через шину событий"])
        try app.send("activate 0")
        XCTAssertEqual(try app.send("dump")["title"], "Каталог")
        let items = try XCTUnwrap(try app.send("menu")["items"]?.arrayValue).compactMap { $0["label"]?.stringValue }
        XCTAssertEqual(items, ["Назад", "Поиск", "Каталог", "Избранное", "Заметки", "Заметки по дням", "Люди", "Модули", "Журнал событий", "Новая заметка", "Поздороваться из C", "Привет из C", "История местоположения", "Сетевые запросы", "Шаблон", "Отменить", "Повторить", "Параметры", "Клавиатурные сокращения", "О приложении Trellis", "Выйти"])
        XCTAssertEqual(try app.send("chrome")["widgets"]?["back"]?["tooltip"], "Назад")
        try app.send("activate 5")
        XCTAssertEqual(try app.send("dump")["fields"]?["name"], "Фэнтези")
        try app.screenshot("genre-ru")
        XCTAssertEqual(app.finish(), 0)
    }

    /// Writes `json` to a temporary payload file.
    static func payload(_ json: String) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-push-\(UUID().uuidString).json")
        try Data(json.utf8).write(to: file)
        return file
    }
}
