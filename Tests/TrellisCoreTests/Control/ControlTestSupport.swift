@testable import TrellisCore
import TrellisTesting

extension Trace {
    /// Only the labels of what the control objects recorded (each entry's text before the
    /// first space).
    var labels: [String] { all.map { String($0.split(separator: " ")[0]) } }
}

/// An error a control object throws in tests.
struct ProbeError: Error, CustomStringConvertible {
    let text: String
    var description: String { text }
}

/// A background control object that records itself, optionally adds parameters, and
/// returns or throws what it is told.
struct ProbeStep: ControlObject {
    let label: String
    let trace: Trace
    var adds: [String: JSONValue] = [:]
    var result: ControlResult = .continue
    var error: ProbeError?
    /// Sleeps this long (throwing when cancelled) before returning.
    var sleep: Duration?

    func handle(_ request: inout ControlRequest) async throws -> ControlResult {
        trace.record("\(label) main=\(MainQueueProbe.isOnMainQueue) keys=\(request.parameters.keys.sorted())")
        if let sleep { try await Task.sleep(for: sleep) }
        if let error { throw error }
        request.parameters.merge(adds) { _, new in new }
        return result
    }
}

/// A background control object that reads its request as the typed command `Value` and
/// records "label value".
struct ProbeReader<Value: Command>: ControlObject {
    let label: String
    let trace: Trace

    func handle(_ request: inout ControlRequest) async throws -> ControlResult {
        trace.record("\(label) \(try request.command(as: Value.self))")
        return .continue
    }
}

/// A view or error control object that records itself (and the failure it saw), checks it
/// is on the main actor, and returns or throws what it is told.
@MainActor
final class ProbeView: ViewControlObject {
    let label: String
    let trace: Trace
    let result: ControlResult
    let error: ProbeError?

    init(_ label: String, _ trace: Trace, result: ControlResult = .continue, error: ProbeError? = nil) {
        self.label = label
        self.trace = trace
        self.result = result
        self.error = error
    }

    func handle(_ request: inout ControlRequest) async throws -> ControlResult {
        MainActor.assertIsolated()
        var entry = "\(label) main=\(MainQueueProbe.isOnMainQueue) keys=\(request.parameters.keys.sorted())"
        if let failure = request.failure {
            entry += " failure=\(failure.errorCommand)/\(failure.stage.map(\.rawValue) ?? "-")/\(failure.reason)"
        }
        trace.record(entry)
        if let error { throw error }
        return result
    }
}

/// The front controller's lifecycle events as "message command [field=value…]".
final class LifecycleLog: Sendable {
    let recorder: EventRecorder

    init(bus: EventBus) {
        recorder = EventRecorder(bus: bus, pattern: "request:*")
    }

    var all: [String] {
        recorder.all.map { event in
            let command = event.data["command"]?.stringValue ?? "?"
            let fields = (event.data.objectValue ?? [:])
                .filter { $0.key != "id" && $0.key != "command" }
                .sorted { $0.key < $1.key }
                .map { "\($0.key)=\($0.value.stringValue ?? $0.value.jsonString)" }
            return ([event.message, command] + fields).joined(separator: " ")
        }
    }
}
