import Foundation

/// The renderer GTK draws windows with, chosen before GTK starts: cairo where OpenGL could
/// only run in software, GTK's own choice elsewhere.
///
/// GTK 4.14 and later stop using their OpenGL renderers when the only OpenGL is Mesa's
/// software rasterizer (GTK commit 6c4739a2f16, "gsk: Don't use gpu renderers with
/// llvmpipe"): drawing each frame's scene in software OpenGL costs several times what
/// cairo costs. GTK 4.8 (Debian 12) still picks OpenGL there — in a virtual machine, over
/// remote desktop, under Xvfb — and each keystroke's frame then takes tens of milliseconds
/// (`trellis-bench typing`: 42 → 16 ms on the catalog, p50). Trellis makes the newer GTK's
/// choice on 4.8: with no GPU render node (`/dev/dri/renderD*`), Mesa can only render in
/// software, so the cairo renderer is used. `GSK_RENDERER`, when set, always wins.
///
/// `trellis-bench` gives its C baselines the same choice (``environment``), so that a
/// comparison is between programs, not renderers.
public enum RendererChoice {
    /// The renderer to ask GTK for, or nil to leave GTK its default.
    /// - Parameters:
    ///   - environment: the process environment (`GSK_RENDERER` set wins).
    ///   - renderNodes: the names in `/dev/dri` (empty when it does not exist).
    public static func renderer(environment: [String: String], renderNodes: [String]) -> String? {
        if let chosen = environment["GSK_RENDERER"], !chosen.isEmpty { return nil }
        return renderNodes.contains { $0.hasPrefix("renderD") } ? nil : "cairo"
    }

    /// `GSK_RENDERER` as this machine and process environment choose it, or nothing when GTK
    /// keeps its default: for another GTK program to draw as Trellis does here.
    public static var environment: [String: String] {
        let nodes = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []
        return renderer(environment: ProcessInfo.processInfo.environment, renderNodes: nodes).map { ["GSK_RENDERER": $0] } ?? [:]
    }

    /// Sets `GSK_RENDERER` for this process when ``renderer(environment:renderNodes:)``
    /// chooses one. Call before the first window is realized (GTK reads it then).
    static func apply() {
        guard let renderer = environment["GSK_RENDERER"] else { return }
        setenv("GSK_RENDERER", renderer, 0)
    }
}
