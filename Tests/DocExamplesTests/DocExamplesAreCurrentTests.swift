import Foundation
import Testing
import TrellisTesting

/// The files in Generated/ are what `.ci/doc-examples` extracts from README.md, the DocC
/// articles and the doc comments of Sources/ today: an example edited or added without running
/// it again fails here (and in `.ci/test`, which checks before building).
@Suite("Docs: compiled examples")
struct DocExamplesAreCurrentTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("the compiled examples are those of the documents (python3 .ci/doc-examples --check)")
    func generatedFilesAreCurrent() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.repository.appendingPathComponent(".ci/doc-examples").path, "--check"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.runOneAtATime()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
    }
}
