import TrellisCore

/// The front end with no display: renders pages as text and takes clicks and typing.
/// In the spirit of SwiftNIO's `EmbeddedChannel`: every logic test runs against it.
@MainActor
public final class HeadlessFrontend {
    public init() {}
}
