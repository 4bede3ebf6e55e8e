import InMemoryLogging
import Logging

/// Collects what loggers write, so a test can assert that something was logged and at what
/// level. Give the type under test a logger made by ``logger(label:level:)``.
///
/// Built on swift-log's `InMemoryLogHandler`, with messages as plain strings and loggers at
/// `trace` level by default, so nothing the code logs is filtered out before the test sees it.
///
/// ```swift
/// let logs = LogCapture()
/// let controller = FrontController(bus: EventBus(), logger: logs.logger())
/// _ = await controller.handleRequest("frobnicate")
/// #expect(logs.messages(at: .error).contains { $0.contains("'frobnicate'") })
/// ```
///
/// What a captured logger writes goes here only: it is not printed, so a test that provokes
/// an error on purpose keeps the test log quiet.
public final class LogCapture: Sendable {
    /// One logged message.
    public struct Entry: Sendable, Equatable {
        /// The level it was logged at.
        public let level: Logger.Level
        /// The message, as text.
        public let message: String
        /// The logger's metadata merged with the message's.
        public let metadata: Logger.Metadata

        /// An entry, as a test writes the one it expects.
        public init(level: Logger.Level, message: String, metadata: Logger.Metadata = [:]) {
            self.level = level
            self.message = message
            self.metadata = metadata
        }
    }

    private let handler = InMemoryLogHandler()

    /// An empty capture.
    public init() {}

    /// A logger whose output lands here, at `level` (by default everything, `trace` up).
    /// Every logger made by one capture writes to the same list.
    public func logger(label: String = "test", level: Logger.Level = .trace) -> Logger {
        var handler = self.handler
        handler.logLevel = level
        return Logger(label: label) { _ in handler }
    }

    /// Everything logged so far, in order.
    public var entries: [Entry] {
        handler.entries.map { Entry(level: $0.level, message: $0.message.description, metadata: $0.metadata) }
    }

    /// The messages logged at exactly `level`, in order.
    public func messages(at level: Logger.Level) -> [String] {
        entries.filter { $0.level == level }.map(\.message)
    }

    /// Forgets what was logged so far.
    public func clear() {
        handler.clear()
    }
}
