import ArgumentParser

/// `trellis-bench`: one subcommand per benchmark. Run in release mode:
///
///     swift run -c release trellis-bench <name>
///
/// Every figure is printed as `NAME: VALUE UNIT`, and every comparison against a baseline
/// measured in the same run as `ratio NAME: VALUE`, oriented so that above 1 means Trellis
/// is better (baseline time ÷ Trellis time, Trellis rate ÷ baseline rate,
/// baseline memory ÷ Trellis memory).
@main
struct TrellisBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trellis-bench",
        abstract: "Trellis benchmarks; every ratio is oriented so that above 1 means Trellis is better.",
        subcommands: BenchmarkList.all
    )
}
