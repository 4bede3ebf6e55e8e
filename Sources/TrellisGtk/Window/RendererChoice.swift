import Foundation
import TrellisCore

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
/// With the cairo renderer nothing of Trellis uses OpenGL, yet GDK 4.8 still opens it, and
/// Mesa's software rasterizer brings LLVM with it: 60 MiB of the window's 118 MiB, and tens
/// of milliseconds before its first frame. So GDK is also told not to
/// (`GDK_DEBUG=gl-disable`, GTK 4.8's only switch for it), unless `GDK_DEBUG` is set.
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

    /// The variables that make GTK draw as Trellis chooses: `GSK_RENDERER=cairo`, and
    /// `GDK_DEBUG=gl-disable` unless `GDK_DEBUG` is set, where OpenGL would run in software;
    /// nothing when GTK keeps its default.
    public static func variables(environment: [String: String], renderNodes: [String]) -> [String: String] {
        guard let renderer = renderer(environment: environment, renderNodes: renderNodes) else { return [:] }
        var variables = ["GSK_RENDERER": renderer]
        if (environment["GDK_DEBUG"] ?? "").isEmpty { variables["GDK_DEBUG"] = "gl-disable" }
        return variables
    }

    /// ``variables(environment:renderNodes:)`` for this machine and process environment: for
    /// another GTK program to draw as Trellis does here.
    public static var environment: [String: String] {
        let nodes = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []
        return variables(environment: ProcessEnvironment.current, renderNodes: nodes)
    }

    /// Sets ``environment`` in this process, unless set already. Call before GTK opens the
    /// display (GDK reads `GDK_DEBUG` then, `GSK_RENDERER` when the first window is realized),
    /// and before other threads start (`setenv` is not thread-safe); ``Application`` calls it
    /// too.
    public static func apply() {
        for (name, value) in environment { setenv(name, value, 0) }
    }
}
