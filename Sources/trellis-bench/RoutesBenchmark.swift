import ArgumentParser
import Logging
import RoutingKit
import TrellisCore

/// `trellis-bench routes`: matching throughput of ``RouteTable`` against RoutingKit's
/// `TrieRouter` on the same 10,000 patterns and 10,000 paths, in the same run.
///
/// Each side is measured end to end from a path string to a target with its parameters:
/// Trellis calls `match(_:)` (validation, decoding, query, `RouteMatch`); RoutingKit does
/// what Vapor's responder does, splitting the path with `split(separator: "/")` into
/// `[String]` and calling `route(path:parameters:)` with a fresh `Parameters` (given a
/// shared logger, so that making one costs no logger lookup).
struct RoutesBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routes",
        abstract: "Route matching: Trellis RouteTable vs RoutingKit TrieRouter, 10,000 patterns and paths."
    )

    @Option(help: "Number of patterns, and of paths (one per pattern).")
    var count = 10_000

    @Option(help: "Timed rounds per router; the median rate is reported.")
    var rounds = 7

    @Option(help: "Passes over all the paths in one round.")
    var passes = 10

    func run() throws {
        let workload = RouteWorkload(count: count)
        let trellis = RouteTable<Int>()
        let routingKit = TrieRouter<Int>()
        for (index, pattern) in workload.patterns.enumerated() {
            try trellis.add(pattern, owner: "bench", target: index)
            routingKit.register(index, at: RouteWorkload.routingKitComponents(pattern))
        }
        let logger = Logger(label: "trellis.bench.routes")
        let routingKitMatch = { (path: String) -> Int? in
            var parameters = Parameters(logger)
            return routingKit.route(path: path.split(separator: "/").map(String.init), parameters: &parameters)
        }
        for path in workload.paths {
            let expected = try trellis.match(path)
            guard routingKitMatch(path) == expected.target else {
                throw ValidationError("the routers disagree on \(path): Trellis matched \(expected.pattern)")
            }
        }

        var trellisRates: [Double] = []
        var routingKitRates: [Double] = []
        var checksum = 0
        let matches = Double(workload.paths.count * passes)
        for _ in 0..<rounds {
            trellisRates.append(matches / Report.time {
                for _ in 0..<passes {
                    for path in workload.paths {
                        if let match = try? trellis.match(path) { checksum &+= match.target }
                    }
                }
            })
            routingKitRates.append(matches / Report.time {
                for _ in 0..<passes {
                    for path in workload.paths {
                        if let target = routingKitMatch(path) { checksum &+= target }
                    }
                }
            })
        }
        let trellisRate = Report.median(trellisRates)
        let routingKitRate = Report.median(routingKitRates)
        print("patterns: \(workload.patterns.count), paths: \(workload.paths.count), rounds: \(rounds) × \(passes) passes (checksum \(checksum))")
        Report.figure("routes-trellis", trellisRate.rounded(), "matches/s")
        Report.figure("routes-routingkit", routingKitRate.rounded(), "matches/s")
        Report.ratio("routes", trellisRate / routingKitRate)
    }
}

/// The benchmark's patterns and one matching path per pattern, in a shuffled order.
private struct RouteWorkload {
    let patterns: [String]
    let paths: [String]

    init(count: Int) {
        var patterns: [String] = []
        var paths: [String] = []
        for i in 0..<count {
            switch i % 5 {
            case 0:
                patterns.append("/s\(i)/:a/:b")
                paths.append("/s\(i)/alpha\(i)/beta")
            case 1:
                patterns.append("/section\(i % 100)/item\(i)/:id")
                paths.append("/section\(i % 100)/item\(i)/\(i &* 31)")
            case 2:
                patterns.append("/files\(i % 50)/f\(i)/*path")
                paths.append("/files\(i % 50)/f\(i)/docs/2024/report-\(i).pdf")
            case 3:
                patterns.append("/api/v\(i % 10)/users\(i)/:user/posts/:post")
                paths.append("/api/v\(i % 10)/users\(i)/user\(i)/posts/\(i)")
            default:
                patterns.append("/static/pages/page\(i)/index")
                paths.append("/static/pages/page\(i)/index")
            }
        }
        // A fixed linear congruential shuffle: the same order on every run.
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        for index in paths.indices.reversed() where index > 0 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            paths.swapAt(index, Int((state >> 33) % UInt64(index + 1)))
        }
        self.patterns = patterns
        self.paths = paths
    }

    /// A Trellis pattern in RoutingKit's terms: `:name` is a parameter, `*name` its catch-all `**`.
    static func routingKitComponents(_ pattern: String) -> [PathComponent] {
        pattern.split(separator: "/").map { segment in
            switch segment.first {
            case ":": .parameter(String(segment.dropFirst()))
            case "*": .catchall
            default: .constant(String(segment))
            }
        }
    }
}
