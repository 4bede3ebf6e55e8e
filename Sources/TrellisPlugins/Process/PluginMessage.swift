import TrellisCore
import Foundation

/// One message between the shell and a plugin process. Every message has the same four
/// fields; what they hold depends on ``op``:
///
/// | op | number | name | json |
/// |----|--------|------|------|
/// | `grants` | | | the plugin's grants (see `PluginGate.grantsMessage`) |
/// | `start`, `stop` | request | service | options |
/// | `event` | watch | message | data |
/// | `settings` | | | the setting values |
/// | `entry` | | | `{"info": …}` or `{"failure": …}` |
/// | `register` | | service | |
/// | `refuse` | | why | |
/// | `watch` | watch | pattern | |
/// | `unwatch` | watch | | |
/// | `trigger`, `navigate`, `request` | | message, route, command | data, parameters |
/// | `log` | level | text | |
/// | `started` | request | | `{"status": …, "error": …}` |
/// | `stopped` | request | | |
/// | `done` | | | |
///
/// `json` is JSON text carried as it came: the wire never parses it, so an event's data
/// reaches a C plugin as the bytes the shell encoded, and a plugin's trigger reaches the shell
/// as the bytes the plugin wrote (checked by the plugin process, decoded by the shell once).
package struct PluginMessage: Sendable, Equatable {
    package enum Op: UInt8, Sendable, CaseIterable {
        // From the shell.
        case grants = 1, start, stop, event, settings
        // From the plugin process.
        case entry = 16, register, refuse, watch, unwatch, trigger, navigate, request, log, started, stopped, done
    }

    package var op: Op
    package var number: Int64
    package var name: String
    /// JSON text; empty for none (read as `null`).
    package var json: [UInt8]

    package init(_ op: Op, number: Int64 = 0, name: String = "", json: [UInt8] = []) {
        self.op = op
        self.number = number
        self.name = name
        self.json = json
    }

    /// A message whose JSON text is `value`'s.
    package init(_ op: Op, number: Int64 = 0, name: String = "", value: JSONValue) {
        self.init(op, number: number, name: name, json: value.isNull ? [] : Array(value.jsonData()))
    }

    /// The JSON text decoded: `.null` for none, nil when it is not JSON.
    package var value: JSONValue? {
        json.isEmpty ? .null : try? JSONValue(jsonData: Data(json))
    }

    /// Calls `body` with the JSON text as a C string (`null` for none), for a plugin's callback.
    package func withJSONCString<Result>(_ body: (UnsafePointer<CChar>) -> Result) -> Result {
        guard !json.isEmpty else { return "null".withCString(body) }
        var text = json
        text.append(0)
        return text.withUnsafeBufferPointer { bytes in
            // CChar and UInt8 have the same size and alignment; `text` outlives the call.
            bytes.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
        }
    }
}
