import Testing
import TrellisCore
import TrellisDemo
import TrellisHeadless
import TrellisTesting

/// What a notification does inside the running demo: badge, deep link, desktop alert, sync.
@MainActor
@Suite("Notification routing")
struct NotificationRouterTests {
    @Test("a full payload announces the badge, opens show-view, asks for an alert and a sync, in that order")
    func fullPayload() async throws {
        let notification = PushNotification(alert: .init(body: "3 new people", showView: .open(path: "/people")),
                                            badge: 3, sound: "bell", contentAvailable: true)
        let (shell, screen) = try await Fixtures.demo()
        let log = EventRecorder(bus: shell.bus)
        let outcome = NotificationRouter(shell: shell).route(notification)
        #expect(outcome == .init(shownAlert: true, openedPath: "/people", navigationError: nil, badge: 3, requestedSync: true))
        #expect(screen.page?.values.path == "/people")
        let routed = log.all.filter { $0.message.hasPrefix("notification:") || $0.message.hasPrefix("badge:") || $0.message.hasPrefix("sync:") }
        #expect(routed.map(\.message) == ["notification:received", "badge:changed", "notification:show", "sync:requested"])
        #expect(routed[0].data == notification.json)
        #expect(routed[1].data == ["count": 3])
        #expect(routed[2].data == ["body": "3 new people", "sound": "bell", "path": "/people"])
        #expect(routed[3].data == ["reason": "notification"])
    }

    @Test("show-view false shows no alert; content-available 0 asks for no sync; no badge leaves it alone")
    func quietPayload() async throws {
        let (shell, _) = try await Fixtures.demo()
        let log = EventRecorder(bus: shell.bus)
        let outcome = NotificationRouter(shell: shell).route(PushNotification(alert: .init(body: "silent", showView: .hide)))
        #expect(outcome == .init())
        #expect(!log.messages.contains("notification:show"))
        #expect(!log.messages.contains("sync:requested"))
        #expect(!log.messages.contains("badge:changed"))
        #expect(log.messages.contains("notification:received"))
    }

    @Test("a show-view path that is not public is refused: the window stays, the page says why, the alert still shows")
    func privatePath() async throws {
        let (shell, screen) = try await Fixtures.demo()
        let log = EventRecorder(bus: shell.bus)
        let outcome = NotificationRouter(shell: shell)
            .route(PushNotification(alert: .init(body: "look", showView: .open(path: "/events"))))
        #expect(outcome.navigationError == .notPublic(path: "/events", pattern: "/events"))
        #expect(outcome.openedPath == nil)
        #expect(screen.page?.values.path == "/")
        #expect(screen.render().contains("! \"/events\" matches /events, which is not a public route"))
        let shown = log.all.first { $0.message == "notification:show" }
        #expect(shown?.data == ["body": "look"], "no path to open from the desktop notification either")
    }

    @Test("an unknown or malformed show-view path is reported the same way, never thrown")
    func badPaths() async throws {
        for path in ["/no/such/page", "/catalog/../etc"] {
            let (shell, screen) = try await Fixtures.demo()
            let outcome = NotificationRouter(shell: shell).route(PushNotification(alert: .init(body: "x", showView: .open(path: path))))
            #expect(outcome.navigationError != nil, "\(path)")
            #expect(screen.page?.values.path == "/")
            #expect(screen.page?.message?.contains(path) == true, "\(screen.page?.message ?? "no message")")
        }
    }

    @Test("an external link to a public page opens it; the next page shows no stale message")
    func externalLinks() async throws {
        let (shell, screen) = try await Fixtures.demo()
        #expect(shell.openExternalLink("/events") != nil)
        #expect(screen.page?.message != nil)
        #expect(shell.openExternalLink("/catalog/5") == nil)
        #expect(screen.page?.values.path == "/catalog/5")
        #expect(screen.page?.message == nil)
    }
}
