import Foundation

/// The renderer's variables of this test process (`GSK_RENDERER`, `GDK_DEBUG`), kept to be put
/// back: an `Application` made in-process sets them (`RendererChoice.apply`), and every window
/// a later test starts would inherit them, as if the user had chosen a renderer.
struct RendererEnvironment {
    private let saved = ["GSK_RENDERER", "GDK_DEBUG"].map { ($0, ProcessInfo.processInfo.environment[$0]) }

    /// Puts each variable back as it was (unset if it was).
    func restore() {
        for (name, value) in saved {
            if let value { setenv(name, value, 1) } else { unsetenv(name) }
        }
    }
}
