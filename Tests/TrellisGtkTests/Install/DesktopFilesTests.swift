import CGtk
import Foundation
import Testing

/// The files desktops read — the .desktop entry, the AppStream metainfo, the icon — pass the
/// validators packagers run and agree with each other.
@Suite("Desktop files")
struct DesktopFilesTests {
    static let appID = "io.github.trellis.Demo"
    static let data = CommandRunner.packageRoot.appendingPathComponent("data")

    @Test("the desktop entry passes desktop-file-validate")
    func desktopEntry() throws {
        let result = try CommandRunner.tool("desktop-file-validate", [Self.data.appendingPathComponent("\(Self.appID).desktop").path])
        #expect(result.status == 0)
        #expect((result.stdout + result.stderr).isEmpty, "warnings or hints: \(result.stdout)\(result.stderr)")
    }

    @Test("the metainfo passes appstreamcli validate --no-net")
    func metainfo() throws {
        let result = try CommandRunner.tool("appstreamcli", ["validate", "--no-net", Self.data.appendingPathComponent("\(Self.appID).metainfo.xml").path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    @Test("the metainfo launches the desktop entry, which starts trellis with the app's icon")
    func consistent() throws {
        let entry = try String(contentsOf: Self.data.appendingPathComponent("\(Self.appID).desktop"), encoding: .utf8)
        let metainfo = try String(contentsOf: Self.data.appendingPathComponent("\(Self.appID).metainfo.xml"), encoding: .utf8)
        #expect(metainfo.contains("<id>\(Self.appID)</id>"))
        #expect(metainfo.contains("<launchable type=\"desktop-id\">\(Self.appID).desktop</launchable>"))
        #expect(metainfo.contains("<binary>trellis</binary>"))
        #expect(entry.contains("\nIcon=\(Self.appID)\n"))
        #expect(entry.contains("\nExec=trellis\n"))
    }

    @Test("the icon is a square SVG that renders at the sizes desktops use")
    func icon() throws {
        let path = Self.data.appendingPathComponent("icons/hicolor/scalable/apps/\(Self.appID).svg").path
        var width: Int32 = 0
        var height: Int32 = 0
        let format = gdk_pixbuf_get_file_info(path, &width, &height)
        #expect(format != nil, "gdk-pixbuf cannot read the icon")
        #expect(width == height && width >= 48)
        for size: Int32 in [16, 48, 256] {
            var error: UnsafeMutablePointer<GError>?
            let pixbuf = gdk_pixbuf_new_from_file_at_size(path, size, size, &error)
            #expect(pixbuf != nil, "\(error.map { String(cString: $0.pointee.message) } ?? "")")
            if let pixbuf {
                #expect(gdk_pixbuf_get_width(pixbuf) == size)
                g_object_unref(UnsafeMutableRawPointer(pixbuf))
            }
            if let error { g_error_free(error) }
        }
    }
}
