import Foundation
import Testing

/// Runs Tests/shelf.script in Trellis without a window (`trellis --headless`), with this package's
/// plugin loaded, in a process of its own: `swift test` builds the plugin first. Needs `trellis`
/// on the PATH, or its path in $TRELLIS.
@Test("the page lists what its Add button adds, and the status line counts it")
func pageAddsItems() throws {
    let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let trellis = ProcessInfo.processInfo.environment["TRELLIS"] ?? "trellis"
    // The demo app hosts the plugin; its notes go to a database of the test's own.
    let data = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: data) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [trellis, "--headless", "--plugin-dir", package.path, "--database", data.appendingPathComponent("notes.sqlite").path,
                         "--script", package.appendingPathComponent("Tests/shelf.script").path]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(trellis) --headless failed (is trellis on the PATH?):\n\(text)")
}
