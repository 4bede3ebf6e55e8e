import ArgumentParser
import Foundation
import CGtk
import TrellisCore
import TrellisGtk

/// `trellis-bench control`: latency of a four-stage front-controller request (security,
/// validation and business off the main thread, view on the main actor) and throughput of
/// background-only requests.
///
/// As in the window, the main thread runs a GLib main loop with the main-queue bridge
/// installed, so each view stage's main-actor hop goes through the bridge's eventfd and the
/// GLib loop; the measurement itself runs in a detached task.
struct ControlBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "control",
        abstract: "Front controller: four-stage request latency (with the main-actor hop) and background-only throughput."
    )

    @Option(help: "Measured four-stage requests (after as many tenths for warm-up).")
    var requests = 20_000

    @Option(help: "Background-only requests per throughput run.")
    var throughputRequests = 50_000

    @Option(help: "Requests in flight at once for the concurrent throughput run.")
    var concurrency = 64

    struct Check: ControlObject {
        func handle(_ request: inout ControlRequest) async throws -> ControlResult {
            request.parameters["title"]?.stringValue?.isEmpty == false ? .continue : .stop
        }
    }

    struct Store: ControlObject {
        func handle(_ request: inout ControlRequest) async throws -> ControlResult {
            request.parameters["id"] = .number(Double(request.id.rawValue))
            return .continue
        }
    }

    @MainActor
    final class Show: ViewControlObject {
        func handle(_ request: inout ControlRequest) async throws -> ControlResult {
            request.parameters["shown"] = true
            return .continue
        }
    }

    /// A measurement that did not go as planned.
    struct Unexpected: Error, CustomStringConvertible {
        let description: String
    }

    func run() throws {
        let settings = self
        Task.detached {
            do {
                try await settings.measure()
                Self.exit()
            } catch {
                Self.exit(withError: error)
            }
        }
        // The GLib loop owns the main thread, as under GTK; the bridge drains the main queue.
        MainQueueBridge.install()
        g_main_loop_run(g_main_loop_new(nil, 0))
    }

    private func measure() async throws {
        let controller = FrontController(bus: EventBus())
        for command in ["note", "compute"] {
            controller.mapSecurity(command) { Check() }
            controller.mapValidation(command) { Check() }
            controller.mapBusiness(command) { Store() }
        }
        controller.mapView("note") { Show() }
        let parameters: [String: JSONValue] = ["title": "Фэнтези"]

        for _ in 0..<max(requests / 10, 1) {
            _ = await controller.handleRequest("note", parameters: parameters)
        }
        var latencies: [Double] = []
        latencies.reserveCapacity(requests)
        for _ in 0..<requests {
            let start = Report.now()
            let outcome = await controller.handleRequest("note", parameters: parameters)
            latencies.append(Report.now() - start)
            guard outcome.isCompleted else { throw Unexpected(description: "four-stage request ended \(outcome)") }
        }
        Report.figure("control four-stage p50", Report.percentile(latencies, 0.50) * 1e6, "µs")
        Report.figure("control four-stage p99", Report.percentile(latencies, 0.99) * 1e6, "µs")

        let sequential = try await Self.elapsed {
            for _ in 0..<throughputRequests {
                guard await controller.handleRequest("compute", parameters: parameters).isCompleted else {
                    throw Unexpected(description: "background request did not complete")
                }
            }
        }
        Report.figure("control background sequential", Double(throughputRequests) / sequential, "requests/s")

        let batch = (0..<concurrency).map { _ in BatchRequest("compute", parameters: parameters) }
        let rounds = max(throughputRequests / concurrency, 1)
        let concurrent = try await Self.elapsed {
            for _ in 0..<rounds {
                let outcomes = await controller.handleBatch(batch)
                guard outcomes.allSatisfy(\.isCompleted) else {
                    throw Unexpected(description: "a batched background request did not complete")
                }
            }
        }
        Report.figure(
            "control background concurrent-\(concurrency)", Double(rounds * concurrency) / concurrent, "requests/s")
    }

    /// Seconds taken by an asynchronous `body`.
    private static func elapsed(_ body: () async throws -> Void) async rethrows -> Double {
        let start = Report.now()
        try await body()
        return Report.now() - start
    }
}
