import ArgumentParser

/// The registered benchmarks, one subcommand each.
enum BenchmarkList {
    static let all: [any ParsableCommand.Type] = [
        BusBenchmark.self,
        ControlBenchmark.self,
    ]
}
