import Foundation
@testable import TrellisGtk
import XCTest

/// The renderer chosen before GTK starts (`RendererChoice`): cairo where OpenGL could only
/// run in software, as GTK 4.14 and later choose; the user's `GSK_RENDERER` always wins.
final class RendererChoiceTests: XCTestCase {
    func testWithoutAGPURenderNodeTheCairoRendererIsChosen() {
        XCTAssertEqual(RendererChoice.renderer(environment: [:], renderNodes: []), "cairo")
        XCTAssertEqual(RendererChoice.renderer(environment: [:], renderNodes: ["card0", "by-path"]), "cairo",
                       "a display card without a render node cannot run Mesa's hardware drivers")
    }

    func testWithARenderNodeGTKKeepsItsOwnChoice() {
        XCTAssertNil(RendererChoice.renderer(environment: [:], renderNodes: ["card0", "renderD128"]))
    }

    func testGSKRendererSetByTheUserWins() {
        XCTAssertNil(RendererChoice.renderer(environment: ["GSK_RENDERER": "gl"], renderNodes: []))
        XCTAssertEqual(RendererChoice.renderer(environment: ["GSK_RENDERER": ""], renderNodes: []), "cairo",
                       "an empty GSK_RENDERER is GTK's default, not a choice")
    }

    func testWhereCairoIsChosenGDKLeavesOpenGLClosedUnlessGDKDebugIsSet() {
        XCTAssertEqual(RendererChoice.variables(environment: [:], renderNodes: []),
                       ["GSK_RENDERER": "cairo", "GDK_DEBUG": "gl-disable"])
        XCTAssertEqual(RendererChoice.variables(environment: ["GDK_DEBUG": "events"], renderNodes: []),
                       ["GSK_RENDERER": "cairo"], "the user's GDK_DEBUG is left alone")
        XCTAssertEqual(RendererChoice.variables(environment: [:], renderNodes: ["renderD128"]), [:])
        XCTAssertEqual(RendererChoice.variables(environment: ["GSK_RENDERER": "gl"], renderNodes: []), [:])
    }

    /// The real window: under Xvfb on a machine with no render node, it draws with cairo.
    func testTheWindowDrawsWithCairoWhereOpenGLWouldBeSoftware() throws {
        let environment = ProcessInfo.processInfo.environment
        let nodes = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []
        try XCTSkipIf(!(environment["GSK_RENDERER"] ?? "").isEmpty, "GSK_RENDERER is set: the user's choice")
        try XCTSkipIf(nodes.contains { $0.hasPrefix("renderD") }, "this machine has a GPU render node")
        let app = try AppDriver()
        XCTAssertEqual(try app.send("dump")["renderer"]?.stringValue, "GskCairoRenderer")
        XCTAssertEqual(app.finish(), 0)
    }
}
