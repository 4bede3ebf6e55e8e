import Foundation
import Testing
import TrellisTesting

@Suite("TestFolder")
struct TestFolderTests {
    @Test("each folder is new, empty and inside the process's own folder, named by its pid")
    func freshFolders() throws {
        let first = try TestFolder.make("store")
        let second = try TestFolder.make("store")
        #expect(first != second)
        #expect(first.deletingLastPathComponent().standardizedFileURL == TestFolder.root.standardizedFileURL)
        #expect(TestFolder.root.lastPathComponent == "trellis-tests-\(getpid())")
        #expect(first.lastPathComponent.hasPrefix("store-"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: first.path).isEmpty)
    }
}
