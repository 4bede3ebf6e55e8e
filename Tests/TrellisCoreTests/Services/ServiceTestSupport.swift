import Dispatch
@testable import TrellisCore

/// A service that records its calls, watches `probe:ping`, and can be told to fail or to
/// block in `start`.
final class ProbeService: Service {
    struct Failure: Error, CustomStringConvertible {
        var description: String { "probe refused to start" }
    }

    let calls = LockedState<[String]>([])
    let pings = LockedState(0)
    private let fails: Bool
    private let gate: (entered: DispatchSemaphore, release: DispatchSemaphore)?

    init(fails: Bool = false, gate: (entered: DispatchSemaphore, release: DispatchSemaphore)? = nil) {
        self.fails = fails
        self.gate = gate
    }

    func start(options: JSONValue, bus: EventBus) throws {
        calls.withLock { $0.append("start \(options)") }
        bus.watch("probe:ping", owner: self) { probe, _ in probe.pings.withLock { $0 += 1 } }
        if let gate {
            gate.entered.signal()
            gate.release.wait()
        }
        if fails { throw Failure() }
    }

    func stop(options: JSONValue) {
        calls.withLock { $0.append("stop \(options)") }
    }
}

/// Counts how many instances a factory made and keeps the last one.
final class ProbeFactory: Sendable {
    private let made = LockedState<[ProbeService]>([])
    private let makeProbe: @Sendable () -> ProbeService

    init(_ makeProbe: @escaping @Sendable () -> ProbeService = { ProbeService() }) {
        self.makeProbe = makeProbe
    }

    func make() -> any Service {
        let probe = makeProbe()
        made.withLock { $0.append(probe) }
        return probe
    }

    var count: Int { made.withLock { $0.count } }
    var last: ProbeService? { made.withLock { $0.last } }
}
