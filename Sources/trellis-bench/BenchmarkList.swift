import ArgumentParser

/// The registered benchmarks, one subcommand each.
enum BenchmarkList {
    static let all: [any ParsableCommand.Type] = [
        FirstFrameBenchmark.self,
        ListStressBenchmark.self,
        ListStressWindow.self,
        StartupBenchmark.self,
        BusBenchmark.self,
        RoutesBenchmark.self,
        TableBenchmark.self,
        StoreBenchmark.self,
        SortBenchmark.self,
        SortWindowBenchmark.self,
        DurabilityBenchmark.self,
        PluginsBenchmark.self,
        PluginRebuildBenchmark.self,
        ControlBenchmark.self,
        TypingBenchmark.self,
        SyncBenchmark.self,
        IdleBenchmark.self,
    ]
}
