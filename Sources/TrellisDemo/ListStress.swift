import TrellisCore

/// `trellis --rows N --stress-inserts K` (the `liststress` benchmark): after the first frame,
/// inserts K rows one at a time into the catalog shown, at the same pseudo-random positions as
/// the C baseline, each announced as its own change.
@MainActor
public enum ListStress {
    public enum Failure: Error, CustomStringConvertible {
        case noEditableList
        public var description: String { "--stress-inserts needs the catalog page on top, with --rows" }
    }

    /// Inserts `count` rows into the list on top. Throws when the page on top is not an
    /// editable list of strings.
    public static func insert(_ count: Int, into shell: Shell) throws {
        guard case .table(let container)? = shell.navigator.top?.content,
              let source = container.source as? ArraySource<String> else { throw Failure.noEditableList }
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        let initial = source.count
        for index in 0..<count {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let position = Int((seed >> 33) % UInt64(initial + index + 1))
            try source.insert("new \(index)", at: position)
        }
    }
}
