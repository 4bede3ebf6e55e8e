import Synchronization
import Foundation
import TrellisCore
import TrellisDemo
import TrellisHeadless

/// The repository's `data/` folder and the demo shell built on it, for headless tests.
@MainActor
enum Fixtures {
    static let dataDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().appendingPathComponent("../../../data").standardizedFileURL

    static func catalog() throws -> [String] { try Resources.loadCatalog(from: dataDirectory) }

    /// A demo shell with a headless front end, at `/`.
    static func demo() throws -> (Shell, HeadlessFrontend) {
        let shell = Shell()
        try DemoApp.install(on: shell, catalog: catalog())
        let screen = HeadlessFrontend(shell: shell)
        try shell.navigate(to: "/")
        return (shell, screen)
    }
}

/// Collects bus events (synchronously delivered) for assertions.
final class EventLog: Sendable {
    private let storage = Mutex<[Event]>([])

    init(_ bus: EventBus, _ pattern: String = "*") {
        bus.watch(pattern, owner: self) { [weak self] event in self?.storage.withLock { $0.append(event) } }
    }

    var events: [Event] { storage.withLock { $0 } }
    var messages: [String] { events.map(\.message) }
}
