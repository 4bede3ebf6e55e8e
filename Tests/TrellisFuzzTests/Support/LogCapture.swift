import Logging
@testable import TrellisCore

/// Collects what a `Logger` writes, so a property can check what the host logged about a
/// refused call (the same helper as TrellisCoreTests', which this target cannot import).
final class LogCapture: Sendable {
    /// One logged message.
    struct Entry: Sendable, Equatable {
        let level: Logger.Level
        let message: String
    }

    private let storage = LockedState<[Entry]>([])

    /// Everything logged so far, in order.
    var entries: [Entry] { storage.withLock { $0 } }

    /// A logger at `trace` level whose output lands here.
    func logger(label: String = "fuzz") -> Logger {
        var logger = Logger(label: label) { _ in Handler(capture: self) }
        logger.logLevel = .trace
        return logger
    }

    private struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            capture.storage.withLock { $0.append(Entry(level: event.level, message: event.message.description)) }
        }
    }
}
