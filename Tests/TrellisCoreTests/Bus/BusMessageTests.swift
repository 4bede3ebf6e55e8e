import Testing
import TrellisCore
import TrellisTesting

/// A typed message of the app's, as the documentation shows it.
private struct NoteSaved: BusMessage {
    static let name = "note:saved"
    var id: Int
    var title: String?
}

@Suite("Typed bus messages")
struct BusMessageTests {
    final class Owner: Sendable {}

    @Test("a typed message is triggered under its name with its value as data, and watched typed")
    func roundTrip() {
        let bus = EventBus()
        let owner = Owner()
        let seen = LockedState<[String]>([])
        bus.watch(NoteSaved.self, owner: owner) { _, saved in seen.withLock { $0.append("\(saved.id) \(saved.title ?? "-")") } }
        let raw = EventRecorder(bus: bus, pattern: "note:*")

        bus.trigger(NoteSaved(id: 7, title: "Фэнтези"))

        #expect(seen.withLock { $0 } == ["7 Фэнтези"])
        #expect(raw.all.map(\.message) == ["note:saved"])
        #expect(raw.all.first?.data == ["id": 7, "title": "Фэнтези"], "plugins and patterns see the same event")
    }

    @Test("an event of the name triggered with other data is logged and not delivered typed")
    func wrongData() throws {
        let logs = LogCapture()
        let bus = EventBus(logger: logs.logger())
        let owner = Owner()
        let seen = LockedState(0)
        bus.watch(NoteSaved.self, owner: owner) { _, _ in seen.withLock { $0 += 1 } }

        bus.trigger("note:saved", ["id": "seven"])
        bus.trigger("note:saved", ["id": 8])

        #expect(seen.withLock { $0 } == 1)
        #expect(logs.entries.contains { $0.level == .warning && $0.message.hasPrefix("note:saved: its data is not what the message carries") })
        #expect(throws: BusMessageError.self) { try Event(message: "note:deleted", data: ["id": 1]).decode(NoteSaved.self) }
    }

    @Test("a main-actor owner that is not Sendable may watch, typed or by name; its watch ends with it")
    @MainActor
    func mainActorOwner() async throws {
        @MainActor final class Page {
            var titles: [String] = []
            var names: [String] = []
            init(bus: EventBus) {
                bus.watchOnMainActor(NoteSaved.self, owner: self) { page, saved in page.titles.append(saved.title ?? "") }
                bus.watchOnMainActor("note:*", owner: self) { page, event in page.names.append(event.message) }
            }
        }
        let bus = EventBus()
        var page: Page? = Page(bus: bus)
        bus.trigger(NoteSaved(id: 1, title: "a"))
        #expect(await eventually { page?.titles == ["a"] && page?.names == ["note:saved"] })
        weak let gone = page
        page = nil
        #expect(gone == nil)
        bus.trigger(NoteSaved(id: 2, title: "b"))
        #expect(bus.watchCount == 0)
    }
}
