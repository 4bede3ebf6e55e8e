import Foundation
import Testing
import TrellisCore
import TrellisTesting
@testable import TrellisSync

extension AgainstRealServers {
    /// `trellis sync` and `trellis --headless --script` as a new user runs them: the built
    /// executable, a fresh empty HOME, json-server-py as the server.
    @Suite("trellis sync and headless scripts from an empty HOME")
    struct SyncCommandLineTests {
        /// An empty HOME for the `trellis` processes of one test.
        struct Home {
            let folder: URL

            init() throws {
                folder = try TestFolder.make("home")
            }

            /// The built `trellis` beside the test bundle.
            static func trellis() throws -> String {
                let url = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("trellis")
                try #require(FileManager.default.isExecutableFile(atPath: url.path), "build the trellis executable first: \(url.path)")
                return url.path
            }

            /// Runs `trellis arguments`, with `script` as standard input if given.
            func trellis(_ arguments: [String], script: String? = nil) async throws -> ChildProcess.Result {
                var input: URL?
                if let script {
                    input = folder.appendingPathComponent("script-\(UUID().uuidString).txt")
                    try Data(script.utf8).write(to: input!)
                }
                return try await ChildProcess.run([try Self.trellis()] + arguments, environment: [
                    "HOME": folder.path, "XDG_DATA_HOME": "", "XDG_CONFIG_HOME": "", "XDG_CACHE_HOME": "", "TRELLIS_LOG_LEVEL": "critical",
                    "LANGUAGE": "en", "LC_ALL": "C.UTF-8",
                ], input: input)
            }
        }

        @Test("without a server, trellis sync says how to give one and exits 1")
        func noServer() async throws {
            let home = try Home()
            let result = try await home.trellis(["sync"])
            #expect(result.status == 1)
            #expect(result.standardError.contains("no server is configured: give --server URL, or set sync.server in \(home.folder.path)/.config/trellis/settings.json"))
        }

        @Test("a script writes a note and the last pass sends it; trellis sync then brings another client's edit")
        func scriptAndSync() async throws {
            try await JSONServerPy.with { server in
                let home = try Home()
                let url = server.baseURL.absoluteString
                let written = try await home.trellis(["--headless", "--server", url, "--script", "-"], script: """
                    # A note written as a person would.
                    navigate /notes
                    press new
                    fill title Shopping
                    fill body "milk\\nbread"
                    press save
                    expect Shopping | milk
                    select Shopping
                    print
                    """)
                #expect(written.status == 0, "\(written.standardError)")
                #expect(written.standardOutput.contains("Title: [Shopping]\nText: [milk\nbread]"))
                #expect(written.standardError.isEmpty)
                let notes = try await server.notes()
                #expect(Convergence.lines(notes) == ["Shopping | milk\nbread"])
                // A later pass sees the create kept; an edit made elsewhere before that would be
                // indistinguishable from one made after the server lost the create, and would
                // leave a conflict copy (FaultMatrixTests).
                #expect(try await home.trellis(["sync", "--server", url]).status == 0)

                try await server.edit(try #require(notes.first?.id), ["body": "eggs"])
                let synced = try await home.trellis(["sync", "--server", url])
                #expect(synced.status == 0, "\(synced.standardError)")
                #expect(synced.standardOutput.contains("sent       0 changes\nreceived   0 new, 1 changed, 0 to the Trash"))
                #expect(synced.standardOutput.contains("upsert: yes, client id kept: yes"))
                #expect(synced.standardOutput.hasSuffix("queued     0\n"))
                let shown = try await home.trellis(["--headless", "/notes", "--server", url])
                #expect(shown.status == 0)
                #expect(shown.standardOutput.contains("Shopping | eggs"))
            }
        }

        @Test("with the server down, a note written by a script stays queued (exit 1) and the next trellis sync sends it once")
        func offlineThenSync() async throws {
            try await JSONServerPy.with { server in
                let home = try Home()
                let url = server.baseURL.absoluteString
                server.kill()
                let offline = try await home.trellis(["--headless", "--server", url, "--script", "-"], script: """
                    navigate /notes/new
                    fill title Written offline
                    press save
                    """)
                #expect(offline.status == 1)
                #expect(offline.standardError.contains("sync stopped:"))
                #expect(offline.standardError.contains("1 change still queued"))

                let failed = try await home.trellis(["sync", "--server", url])
                #expect(failed.status == 1)
                #expect(failed.standardOutput.contains("queued     1\n  create \"Written offline\""))

                try await server.restart()
                let synced = try await home.trellis(["sync", "--server", url])
                #expect(synced.status == 0, "\(synced.standardError)")
                #expect(synced.standardOutput.contains("queued     0"))
                #expect(Convergence.lines(try await server.notes()) == ["Written offline | "])
            }
        }

        @Test("a script error names the script, the line and the step; what the earlier steps saved is still synced")
        func scriptErrors() async throws {
            try await JSONServerPy.with { server in
                let home = try Home()
                let url = server.baseURL.absoluteString
                let unknown = try await home.trellis(["--headless", "--script", "-"], script: "navigate /notes\nclick row\n")
                #expect(unknown.status == 1)
                #expect(unknown.standardError.contains("Error: -:2: click row: unknown step \"click\""))
                #expect(unknown.standardOutput.isEmpty)

                let failing = try await home.trellis(["--headless", "--server", url, "--script", "-"], script: """
                    navigate /notes
                    press new
                    fill title Kept
                    press save
                    press nope
                    """)
                #expect(failing.status == 1)
                #expect(failing.standardError.contains(#"Error: -:5: press nope: no button "nope" on this page (buttons: new, sync, conflicts, trash)"#))
                #expect(Convergence.lines(try await server.notes()) == ["Kept | "])

                let missing = try await home.trellis(["--headless", "--script", home.folder.appendingPathComponent("none.txt").path])
                #expect(missing.status == 1)
                #expect(missing.standardError.contains("cannot read the script"))
            }
        }
    }
}
