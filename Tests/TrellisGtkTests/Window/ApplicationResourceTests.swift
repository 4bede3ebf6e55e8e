import CGtk
import Foundation
import TrellisTesting
@testable import TrellisGtk
import XCTest

/// GTK adds an application's resource folder `<base path>/icons/` to the icon theme when it
/// starts, which makes the theme drop what its worker thread had read. An application with no
/// resources under its base path gets none added; one that registered resources there keeps
/// GTK's loading (its `gtk/help-overlay.ui`, its icons). In-process, with a display.
final class ApplicationResourceTests: InProcessWindowTestCase {
    func testAnApplicationWithNoResourcesAddsNothingToTheIconTheme() throws {
        try MainActor.assumeIsolated {
            let application = Application(id: "io.github.trellis.NoResourcesTest", unique: false)
            try application.register()
            XCTAssertNil(g_application_get_resource_base_path(application.pointer.as()))
            let paths = try Self.iconThemeResourcePaths()
            XCTAssertFalse(paths.contains("/io/github/trellis/NoResourcesTest/icons/"), "\(paths)")
        }
    }

    func testAnApplicationWithResourcesKeepsGTKsLoadingOfThem() throws {
        let bundle = try Self.compileResource(prefix: "/io/github/trellis/WithResourcesTest")
        var error: UnsafeMutablePointer<GError>?
        let resource = try XCTUnwrap(g_resource_load(bundle.path, &error), error.map { String(cString: $0.pointee.message) } ?? "")
        g_resources_register(resource)
        defer { g_resources_unregister(resource); g_resource_unref(resource) }
        try MainActor.assumeIsolated {
            let application = Application(id: "io.github.trellis.WithResourcesTest", unique: false)
            try application.register()
            XCTAssertEqual(g_application_get_resource_base_path(application.pointer.as()).map { String(cString: $0) },
                           "/io/github/trellis/WithResourcesTest")
            let paths = try Self.iconThemeResourcePaths()
            XCTAssertTrue(paths.contains("/io/github/trellis/WithResourcesTest/icons/"), "\(paths)")
        }
    }

    @MainActor
    private static func iconThemeResourcePaths() throws -> [String] {
        let display = try XCTUnwrap(gdk_display_get_default())
        return strings(takingStrv: gtk_icon_theme_get_resource_path(gtk_icon_theme_get_for_display(display)))
    }

    /// A resource bundle holding one file under `prefix`, made by `glib-compile-resources`.
    private static func compileResource(prefix: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("resources-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("hello".utf8).write(to: folder.appendingPathComponent("hello.txt"))
        try Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <gresources><gresource prefix="\(prefix)"><file>hello.txt</file></gresource></gresources>
            """.utf8).write(to: folder.appendingPathComponent("test.gresource.xml"))
        let compiler = Process()
        compiler.executableURL = URL(fileURLWithPath: "/usr/bin/glib-compile-resources")
        compiler.arguments = ["--sourcedir", folder.path, "--target", folder.appendingPathComponent("test.gresource").path,
                              folder.appendingPathComponent("test.gresource.xml").path]
        try compiler.runOneAtATime()
        compiler.waitUntilExit()
        XCTAssertEqual(compiler.terminationStatus, 0, "glib-compile-resources (libglib2.0-dev-bin) failed")
        return folder.appendingPathComponent("test.gresource")
    }
}
