import Testing
import TrellisPluginSDK

/// Where the examples of the doc comments of TrellisPluginSDK and TrellisShared are compiled:
/// `.ci/doc-examples` makes each such ```swift block (one not beginning with `import`) the body
/// of a method of this class, in `Generated/Symbols_*.swift`, so that an example reads as code
/// in a plugin's service: `self` owns watches (the closures' `service`), and `host`, `bus`,
/// `pages` and `commands` are those of a plugin whose manifest's id is "weather".
///
/// TrellisPluginSDK's examples are compiled, never run (what the SDK does is tested by
/// TrellisPluginSDKTests and by the plugins of TrellisPluginsTests). TrellisShared's need no
/// host: they are static methods, and SymbolExampleRunTests runs each, so that what they
/// `assert` is true.
final class SymbolExample: Sendable {
    let host: TrellisHost
    var bus: PluginBus { host.bus }
    let pages: PluginPages
    let commands: PluginCommands

    init(host: TrellisHost) {
        self.host = host
        pages = PluginPages(pluginID: "weather", host: host)
        commands = PluginCommands(pluginID: "weather", host: host)
    }

    /// Reads the data again (an example's stand-in for a plugin's own work).
    func refresh() {}

    /// Counts `delta` more activities (an example's stand-in for a plugin's own work).
    func change(by delta: Int) {}

    /// `assert` in a running example: a false condition is a test issue at the example's line
    /// (its doc comment's, through `#sourceLocation`) rather than a crash of the test process.
    static func assert(_ condition: @autoclosure () throws -> Bool, _ message: @autoclosure () -> String = "",
                       fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) rethrows {
        if try !condition() {
            Issue.record("the example's assert failed\(message().isEmpty ? "" : ": \(message())")",
                         sourceLocation: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
        }
    }
}
