import Logging
import Testing
import TrellisCore
import TrellisTesting

@Suite("LogCapture")
struct LogCaptureTests {
    @Test("the documentation's example: an unknown command is logged as an error naming it")
    func documentationExample() async {
        let logs = LogCapture()
        let controller = FrontController(bus: EventBus(), logger: logs.logger())
        _ = await controller.handleRequest("frobnicate")
        #expect(logs.messages(at: .error).contains { $0.contains("'frobnicate'") })
    }

    @Test("every level from trace up is captured with its message and metadata, in order")
    func levelsAndMetadata() {
        let logs = LogCapture()
        var logger = logs.logger(label: "trellis.test")
        logger[metadataKey: "plugin"] = "wordy"
        logger.trace("one")
        logger.warning("two", metadata: ["file": "manifest.json"])
        #expect(logs.entries == [
            LogCapture.Entry(level: .trace, message: "one", metadata: ["plugin": "wordy"]),
            LogCapture.Entry(level: .warning, message: "two", metadata: ["plugin": "wordy", "file": "manifest.json"]),
        ])
        #expect(logs.messages(at: .warning) == ["two"])
    }

    @Test("a logger at a higher level filters as any logger does; all loggers of a capture share it")
    func levelAndSharing() {
        let logs = LogCapture()
        let quiet = logs.logger(level: .warning)
        let chatty = logs.logger(label: "other")
        quiet.info("hidden")
        quiet.error("shown")
        chatty.debug("also shown")
        #expect(logs.entries.map(\.message) == ["shown", "also shown"])
        logs.clear()
        #expect(logs.entries.isEmpty)
    }
}
