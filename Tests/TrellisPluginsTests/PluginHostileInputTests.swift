import Foundation
import Testing
import TrellisPluginABI
@testable import TrellisPlugins
import TrellisCore
import TrellisTesting

/// Oversized input from plugins: refused where it enters the host, with a message naming the
/// plugin (or file) and the size, while the shell and the plugins go on. (Unsafe ownership
/// and modes are rows of the failure matrix, `PluginFailureMatrixTests`.)
@Suite("Plugins: oversized input")
struct PluginHostileInputTests {
    @Test("an event a plugin triggers with over 1 MiB of JSON is refused at the ABI, naming the plugin and the size",
          arguments: PluginIsolation.both)
    func oversizedTrigger(isolation: PluginIsolation) async throws {
        let sandbox = try PluginSandbox()
        try sandbox.install("CHello")
        let harness = PluginHarness(sandbox: sandbox, isolation: isolation)
        #expect(await harness.load()[id: "c-hello"]?.state == .loaded)
        let pongs = harness.record("hello:pong")

        // CHello echoes a ping's data back in its pong, through the host's trigger.
        let limit = Int(TRELLIS_PLUGIN_MAX_JSON_SIZE)
        let huge = String(repeating: "я", count: limit / 2)  // 1 MiB of UTF-8, plus quotes: over the limit
        harness.bus.trigger("hello:ping", .string(huge))

        #expect(await eventually { harness.logs.entries.contains { $0.level == .error } })
        let error = try #require(harness.logs.entries.last { $0.level == .error })
        #expect(error.message == #"plugin "c-hello": trigger "hello:pong": refused: \#(limit + 2) bytes of JSON is over the limit of \#(limit) bytes"#)

        let fits = String(repeating: "я", count: limit / 2 - 1)
        harness.bus.trigger("hello:ping", .string(fits))
        harness.bus.trigger("hello:ping", ["after": true])
        // The plugin answers in order: the two pongs come after the refused one would have.
        let answered = try await pongs.settled(count: 2)
        #expect(answered.count == 2, "payloads within the limit still cross, and the plugin goes on")
        #expect(answered.first?.hasPrefix(#"hello:pong "яя"#) == true, "the first pong is the one that fits")
        #expect(answered.last == #"hello:pong {"after":true}"#)
    }

    @Test("a manifest over 64 KiB fails that plugin as too large; the others load", arguments: PluginIsolation.both)
    func oversizedManifest(isolation: PluginIsolation) async throws {
        let sandbox = try PluginSandbox()
        try sandbox.install("CHello")
        let folder = try sandbox.install("Template", as: "wordy") {
            $0["description"] = .string(String(repeating: "word ", count: 20_000))
        }
        let file = folder.appendingPathComponent(PluginManifest.fileName)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int)

        let reports = await PluginHarness(sandbox: sandbox, isolation: isolation).load()

        #expect(reports[id: "c-hello"]?.state == .loaded)
        #expect(reports[id: "wordy"]?.state == .failed(.manifest(.tooLarge(file: file.path, bytes: size, limit: 65_536))))
        #expect(reports[id: "wordy"]?.state.description
                == "failed: \(file.path): the manifest is \(size) bytes, over the limit of 65536; it was not read")
    }

    // The two manifest tests below read a manifest file and run no plugin code: no mode.
    @Test("a manifest of 64 GiB, more than this machine's memory, is refused with its size")
    func hugeSparseManifest() throws {
        let sandbox = try PluginSandbox()
        let folder = try sandbox.writeManifest(folder: "huge", "{")
        let file = folder.appendingPathComponent(PluginManifest.fileName)
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: 1 << 36)  // sparse: no disk used, but 64 GiB to read
        try handle.close()

        #expect(throws: PluginManifestError.tooLarge(file: file.path, bytes: 1 << 36, limit: 65_536)) {
            try PluginManifest.load(from: file)
        }
    }

    @Test("a manifest without an end (a pipe kept open) is refused after 64 KiB and one byte: the rest is never awaited")
    func endlessManifest() throws {
        let sandbox = try PluginSandbox()
        let folder = try sandbox.writeManifest(folder: "endless", "{")
        let file = folder.appendingPathComponent(PluginManifest.fileName)
        try FileManager.default.removeItem(at: file)
        try #require(mkfifo(file.path, 0o600) == 0)
        // The writer sends one byte more than the limit, then keeps the pipe open: a loader
        // that read to the end of the file would wait until the writer lets go.
        let release = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let fd = open(file.path, O_WRONLY)
            guard fd >= 0 else { return }
            let bytes = [UInt8](repeating: UInt8(ascii: " "), count: PluginManifest.maximumFileSize + 1)
            var written = 0
            while written < bytes.count {
                let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, bytes.count - written) }
                guard count > 0 else { break }
                written += count
            }
            release.wait()
            close(fd)
        }
        let outcome = LockedState<Result<PluginManifest, PluginManifestError>?>(nil)
        let returned = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            outcome.withLock { $0 = Result { () throws(PluginManifestError) in try PluginManifest.load(from: file) } }
            returned.signal()
        }
        // A deadline for the load to return at all (generous: it reads 64 KiB).
        let returnedWhileOpen = returned.wait(timeout: .now() + 60) == .success
        release.signal()
        if !returnedWhileOpen { _ = returned.wait(timeout: .now() + 60) }
        #expect(returnedWhileOpen, "the loader waited for the end of the pipe instead of stopping after the limit")
        let result = outcome.withLock { $0 }
        guard case .failure(.tooLarge(file: file.path, bytes: _, limit: 65_536))? = result else {
            Issue.record("expected tooLarge, got \(String(describing: result))")
            return
        }
    }
}
