import Foundation
import Testing
import TrellisCore

/// The remembered window size: where it lives, how it is read back, what a damaged file does.
@Suite("Window state")
struct WindowStateTests {
    private let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-state-\(UUID().uuidString)")

    @Test("the file lives under $XDG_CONFIG_HOME, or ~/.config when it is unset or relative")
    func location() {
        #expect(WindowState.fileURL(application: "trellis", environment: ["XDG_CONFIG_HOME": "/cfg", "HOME": "/home/a"]).path
                == "/cfg/trellis/window-state.json")
        #expect(WindowState.fileURL(application: "trellis", environment: ["HOME": "/home/a"]).path
                == "/home/a/.config/trellis/window-state.json")
        #expect(WindowState.fileURL(application: "trellis", environment: ["XDG_CONFIG_HOME": "cfg", "HOME": "/home/a"]).path
                == "/home/a/.config/trellis/window-state.json")
    }

    @Test("a saved state reads back; no file yet reads as nil")
    func roundTrip() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("nested/window-state.json")
        #expect(try WindowState.load(from: file) == nil)
        let state = WindowState(width: 900, height: 700, maximized: true)
        try state.save(to: file)
        #expect(try WindowState.load(from: file) == state)
    }

    @Test("a damaged file is refused with its path and the reason",
          arguments: [("not json", "damaged window state"),
                      (#"{"width": 800, "maximized": false}"#, "height is missing"),
                      (#"{"width": 5, "height": 600, "maximized": false}"#, "width must be from 100 to 32768, not 5"),
                      (#"{"width": 800, "height": "tall", "maximized": false}"#, "height")])
    func damaged(_ example: (text: String, reason: String)) throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("window-state.json")
        try Data(example.text.utf8).write(to: file)
        let error = try #require(throws: WindowStateError.self) { try WindowState.load(from: file) }
        guard case .malformed(let path, _) = error else { Issue.record("expected .malformed, got \(error)"); return }
        #expect(path == file.path)
        #expect(error.description.contains(example.reason), "\(error)")
    }

    @Test("saving where a file blocks the folder reports the path")
    func unwritable() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let blocker = folder.appendingPathComponent("trellis")
        try Data("x".utf8).write(to: blocker)
        let file = blocker.appendingPathComponent("window-state.json")
        let error = try #require(throws: WindowStateError.self) { try WindowState(width: 800, height: 600).save(to: file) }
        guard case .unwritable(let path, _) = error else { Issue.record("expected .unwritable, got \(error)"); return }
        #expect(path == file.path)
    }
}
