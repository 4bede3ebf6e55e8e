import Foundation
import TrellisCore
import XCTest

/// What the window asks of the desktop over D-Bus — desktop notifications, the light/dark
/// preference — checked against fake services the test owns on the session bus.
final class DesktopServicesTests: XCTestCase {
    static let notificationsXML = """
        <node><interface name="org.freedesktop.Notifications">
          <method name="Notify">
            <arg type="s" direction="in"/><arg type="u" direction="in"/><arg type="s" direction="in"/>
            <arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="as" direction="in"/>
            <arg type="a{sv}" direction="in"/><arg type="i" direction="in"/><arg type="u" direction="out"/>
          </method>
          <method name="CloseNotification"><arg type="u" direction="in"/></method>
          <method name="GetCapabilities"><arg type="as" direction="out"/></method>
          <signal name="ActionInvoked"><arg type="u"/><arg type="s"/></signal>
          <signal name="NotificationClosed"><arg type="u"/><arg type="u"/></signal>
        </interface></node>
        """

    static let settingsPortalXML = """
        <node><interface name="org.freedesktop.portal.Settings">
          <method name="Read">
            <arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="v" direction="out"/>
          </method>
          <signal name="SettingChanged"><arg type="s"/><arg type="s"/><arg type="v"/></signal>
        </interface></node>
        """

    private func notificationServer() throws -> FakeBusService {
        try FakeBusService(name: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                           interfaceXML: Self.notificationsXML) { method, _ in
            switch method {
            case "Notify": return "(uint32 41,)"
            case "GetCapabilities": return "(['actions', 'body'],)"
            case "CloseNotification": return "()"
            default: return nil
            }
        }
    }

    func testANotificationToShowBecomesADesktopNotificationAndItsClickOpensThePage() throws {
        let server = try notificationServer()
        let payload = try DesktopWindowTests.payload(#"{"aps": {"alert": {"body": "Три новые заметки", "show-view": "/people"}}}"#)
        defer { try? FileManager.default.removeItem(at: payload) }
        let app = try AppDriver(arguments: ["--notification", payload.path])
        XCTAssertTrue(server.waitForCalls { $0.contains { $0.method == "Notify" } }, "no Notify call reached the notification server")
        let notify = try XCTUnwrap(server.calls.first { $0.method == "Notify" }).parameters
        XCTAssertTrue(notify.contains("'Trellis'"), "titled with the application's name: \(notify)")
        XCTAssertTrue(notify.contains("'Три новые заметки'"), notify)
        XCTAssertTrue(notify.contains("'io.github.trellis.Demo'"), "the app's icon and desktop entry: \(notify)")
        XCTAssertTrue(notify.contains("'default'"), "a default action, to open the page: \(notify)")
        try app.send("back")
        XCTAssertEqual(try app.send("dump")["path"], "/catalog")
        try server.emit("ActionInvoked", "(uint32 41, 'default')")
        let path = try app.dump(until: { $0["path"] == "/people" })["path"]
        XCTAssertEqual(path, "/people", "clicking the notification opens its show-view page")
        XCTAssertEqual(app.finish(), 0)
    }

    func testAHiddenAlertSendsNoDesktopNotification() throws {
        let server = try notificationServer()
        let payload = try DesktopWindowTests.payload(#"{"aps": {"alert": {"body": "silent", "show-view": false}, "badge": 1}}"#)
        defer { try? FileManager.default.removeItem(at: payload) }
        let app = try AppDriver(arguments: ["--notification", payload.path])
        XCTAssertEqual(try app.send("dump")["badge"], 1)
        try app.send(#"trigger notification:show {"body": "marker"}"#)
        XCTAssertTrue(server.waitForCalls { $0.contains { $0.parameters.contains("'marker'") } })
        let bodies = server.calls.filter { $0.method == "Notify" }.map(\.parameters)
        XCTAssertEqual(bodies.count, 1, "only the marker was sent, the hidden alert was not: \(bodies)")
        XCTAssertEqual(app.finish(), 0)
    }

    func testTheWindowFollowsThePortalsColourSchemeAndItsChanges() throws {
        let portal = try FakeBusService(name: "org.freedesktop.portal.Desktop", path: "/org/freedesktop/portal/desktop",
                                        interfaceXML: Self.settingsPortalXML) { method, parameters in
            method == "Read" && parameters.contains("'color-scheme'") ? "(<<uint32 1>>,)" : nil
        }
        let app = try AppDriver()
        XCTAssertEqual(try app.send("dump")["darkTheme"], true, "the portal says: prefer dark")
        XCTAssertTrue(portal.calls.contains { $0.method == "Read" && $0.parameters == "('org.freedesktop.appearance', 'color-scheme')" })
        try app.screenshot("dark")
        try portal.emit("SettingChanged", "('org.freedesktop.appearance', 'color-scheme', <uint32 2>)")
        XCTAssertEqual(try waitForDarkTheme(app, false), false, "the user switched to light")
        try portal.emit("SettingChanged", "('org.freedesktop.appearance', 'color-scheme', <uint32 1>)")
        XCTAssertEqual(try waitForDarkTheme(app, true), true)
        try portal.emit("SettingChanged", "('org.freedesktop.appearance', 'color-scheme', <uint32 0>)")
        XCTAssertEqual(try waitForDarkTheme(app, false), false, "no preference: GTK's default (light)")
        XCTAssertEqual(app.finish(), 0)
    }

    func testWithoutAPortalGtksDefaultApplies() throws {
        try FakeBusService.requireSessionBus()
        let app = try AppDriver()
        XCTAssertEqual(try app.send("dump")["darkTheme"], false)
        XCTAssertEqual(app.finish(), 0)
    }

    /// On a desktop with no session bus (a container, `xvfb-run`, an X session over SSH), every
    /// synchronous request for the bus makes GDBus fork the process to run `dbus-launch`, on the
    /// GTK thread, before the first frame. The window asks no more often than GTK's own bare
    /// window does: the colour-scheme follower takes the application's answer from its
    /// registration instead of asking again. A fake `dbus-launch` counts the attempts.
    func testWithoutASessionBusTheWindowTriesToLaunchOneNoMoreOftenThanABareGtkWindow() throws {
        try AppDriver.requireDisplay()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-no-bus-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bin = folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("runtime"), withIntermediateDirectories: true)
        let fake = bin.appendingPathComponent("dbus-launch")
        try "#!/bin/sh\necho \"$*\" >> \"$LAUNCH_LOG\"\nexit 1\n".write(to: fake, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)

        let flags = try CommandRunner.tool("pkg-config", ["--cflags", "--libs", "gtk4"])
        XCTAssertEqual(flags.status, 0, flags.stderr)
        let baseline = folder.appendingPathComponent("empty-window")
        let source = CommandRunner.packageRoot.appendingPathComponent("Sources/trellis-bench/Baselines/empty-window.c")
        let compiled = try CommandRunner.tool("cc", ["-o", baseline.path, source.path]
            + flags.stdout.split(whereSeparator: \.isWhitespace).map(String.init))
        XCTAssertEqual(compiled.status, 0, compiled.stderr)

        /// Runs `program` to its first frame without a session bus; returns its launch attempts.
        func launchAttempts(_ name: String, _ program: URL, _ arguments: [String]) throws -> [Substring] {
            let log = folder.appendingPathComponent("\(name).log")
            let run = try CommandRunner.tool("env", ["-u", "DBUS_SESSION_BUS_ADDRESS", program.path] + arguments, environment: [
                "PATH": bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
                "LAUNCH_LOG": log.path,
                "XDG_RUNTIME_DIR": folder.appendingPathComponent("runtime").path,
                "XDG_DATA_HOME": folder.appendingPathComponent("\(name)-data").path,
                "XDG_CONFIG_HOME": folder.appendingPathComponent("\(name)-config").path,
            ])
            XCTAssertEqual(run.status, 0, "\(name): \(run.stderr)")
            return (try? String(contentsOf: log, encoding: .utf8))?.split(separator: "\n") ?? []
        }
        let gtk = try launchAttempts("baseline", baseline, [])
        XCTAssertFalse(gtk.isEmpty, "the fake dbus-launch was never run: the test sees nothing")
        XCTAssertTrue(gtk.allSatisfy { $0.contains("--autolaunch") }, "\(gtk)")
        let trellis = try launchAttempts("trellis", AppDriver.executable, ["/", "--exit-after-first-frame"])
        XCTAssertLessThanOrEqual(trellis.count, gtk.count,
                                 "Trellis tried to launch a session bus \(trellis.count) times, a bare GTK window \(gtk.count)")
    }

    private func waitForDarkTheme(_ app: AppDriver, _ expected: Bool) throws -> Bool? {
        try app.dump(until: { $0["darkTheme"]?.boolValue == expected })["darkTheme"]?.boolValue
    }
}
