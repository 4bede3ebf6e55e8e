import Foundation
import Testing
@testable import TrellisPlugins
import TrellisCore
import TrellisTesting

/// A plugin written to do harm (``AttackPlugin``, C from the header alone) tries each attack
/// of issue #32 from its own process; the kernel stops it. Each test names the mechanism that
/// stops it, and on a kernel without that mechanism asserts the warning Trellis shows instead
/// ("What Trellis promises" names these tests). The shell is this test process: it must be
/// alive and answering after each attack, and its files intact.
@Suite("Plugin attacks: a plugin written to do harm is confined", .serialized)
struct PluginAttackTests {
    /// What this kernel offers (the tests assert the warnings where it lacks something).
    static let kernel = PluginConfinementReport.probe()

    /// A harness with attacker `id` loaded in a process of its own.
    static func load(_ id: String, permissions: String = "{}", sandbox: PluginSandbox) async throws -> PluginHarness {
        try sandbox.installAttacker(id, permissions: permissions)
        let harness = PluginHarness(sandbox: sandbox)
        let report = await harness.load()[id: id]
        #expect(report?.state == .loaded, "\(String(describing: report))")
        return harness
    }

    /// Makes attacker `id` try `attack` with `arguments`; its answer.
    static func attempt(_ harness: PluginHarness, _ id: String, _ attack: String, _ arguments: [String: JSONValue] = [:]) async throws -> JSONValue {
        let results = EventRecorder(bus: harness.bus, pattern: "\(id):result")
        harness.bus.trigger("\(id):attack", .object(arguments.merging(["attack": .string(attack)]) { given, _ in given }))
        return try #require(try await results.wait(for: "\(id):result").first?.data)
    }

    /// The plugin still answers, and the shell with it.
    static func expectAlive(_ harness: PluginHarness, _ id: String) async throws {
        #expect(try await attempt(harness, id, "environment")["ok"] == true)
        #expect(harness.host.report(for: id)?.state == .loaded)
    }

    @Test("no file outside its grants: a planted secret and the app's store are neither read nor written; a granted folder is read (Landlock)")
    func files() async throws {
        let sandbox = try PluginSandbox()
        let home = try TestFolder.make("home")
        let secret = home.appendingPathComponent(".ssh/id_rsa")
        try FileManager.default.createDirectory(at: secret.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("-----BEGIN SECRET KEY-----".utf8).write(to: secret)
        let appData = PluginConfinement.protectedFolders(sandbox.environment)[0]
        let store = URL(fileURLWithPath: appData).appendingPathComponent("attack-test-\(UUID().uuidString).sqlite")
        try FileManager.default.createDirectory(at: store.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("SQLite format 3\0 a note's title".utf8).write(to: store)
        defer { try? FileManager.default.removeItem(at: store) }
        // Even a grant of the whole home and of the app's data is not applied to the app's data.
        let harness = try await Self.load("thief", permissions: #"{"files": {"\#(secret.deletingLastPathComponent().path)": "read", "\#(appData)": "read-write"}}"#,
                                          sandbox: sandbox)
        let unrelated = try await Self.load("burglar", sandbox: sandbox)

        let stolen = try await Self.attempt(unrelated, "burglar", "read", ["path": .string(secret.path)])
        let storeRead = try await Self.attempt(harness, "thief", "read", ["path": .string(store.path)])
        let storeWritten = try await Self.attempt(harness, "thief", "write", ["path": .string(store.path)])
        let granted = try await Self.attempt(harness, "thief", "read", ["path": .string(secret.path)])

        #expect(harness.logs.entries.contains { $0.message.contains("is not applied: it would reach Trellis's own data") })
        if Self.kernel?.landlockFiles == true {
            #expect(stolen["ok"] == false && stolen["errno"] == 13, "EACCES: \(stolen)")
            #expect(storeRead["ok"] == false && storeWritten["ok"] == false, "\(storeRead) \(storeWritten)")
            #expect(granted["ok"] == true && granted["text"] == "-----BEGIN SECRET KEY-----", "\(granted)")
        } else {
            #expect(unrelated.host.report(for: "burglar")?.confinement?.missing.contains { $0.hasPrefix("file confinement") } == true)
        }
        #expect(try Data(contentsOf: store) == Data("SQLite format 3\0 a note's title".utf8), "the store is intact")
        try await Self.expectAlive(harness, "thief")
    }

    @Test("a plugin cannot write its own folder: its manifest cannot grant it more (Landlock)")
    func selfGranting() async throws {
        let sandbox = try PluginSandbox()
        let harness = try await Self.load("upgrader", sandbox: sandbox)
        let manifest = sandbox.root.appendingPathComponent("upgrader/plugin.json")
        let before = try Data(contentsOf: manifest)

        let result = try await Self.attempt(harness, "upgrader", "write", ["path": .string(manifest.path)])

        if Self.kernel?.landlockFiles == true {
            #expect(result["ok"] == false && result["errno"] == 13, "\(result)")
            #expect(try Data(contentsOf: manifest) == before)
        }
        try await Self.expectAlive(harness, "upgrader")
    }

    @Test("no network without a grant: no connection to a loopback server, no listening; a granted port connects (namespace, seccomp, Landlock)")
    func network() async throws {
        let sandbox = try PluginSandbox()
        let server = try LoopbackServer()
        let other = try LoopbackServer()
        let denied = try await Self.load("caller", sandbox: sandbox)
        let allowed = try await Self.load("dialer", permissions: #"{"network": ["127.0.0.1:\#(server.port)"]}"#, sandbox: sandbox)

        let connected = try await Self.attempt(denied, "caller", "connect", ["port": .number(Double(server.port))])
        let listened = try await Self.attempt(denied, "caller", "listen", ["port": 0])
        let granted = try await Self.attempt(allowed, "dialer", "connect", ["port": .number(Double(server.port))])
        let otherPort = try await Self.attempt(allowed, "dialer", "connect", ["port": .number(Double(other.port))])

        #expect(connected["ok"] == false && listened["ok"] == false, "\(connected) \(listened)")
        #expect(granted["ok"] == true, "\(granted)")
        #expect(server.received() == "hello")
        let confinement = allowed.host.report(for: "dialer")?.confinement
        if Self.kernel?.landlockNetwork == true {
            #expect(otherPort["ok"] == false, "a port not granted: \(otherPort)")
            #expect(confinement?.warnings.contains { $0.contains("the ports granted are enforced, not the hosts") } == true)
        } else {
            #expect(confinement?.warnings.contains { $0.contains("granted ports cannot be enforced on this kernel") } == true)
        }
        try await Self.expectAlive(allowed, "dialer")
    }

    @Test("the shell cannot be killed, stopped, traced or read (PID namespace, Landlock scoping, seccomp)")
    func shell() async throws {
        let sandbox = try PluginSandbox()
        let harness = try await Self.load("assassin", sandbox: sandbox)
        let shell = JSONValue.number(Double(getpid()))

        for attack in ["kill", "stop", "ptrace", "memory"] {
            let result = try await Self.attempt(harness, "assassin", attack, ["pid": shell])
            #expect(result["ok"] == false, "\(attack): \(result)")
        }
        if Self.kernel?.pidNamespace != true {
            #expect(harness.host.report(for: "assassin")?.confinement?.missing.contains { $0.hasPrefix("namespaces") } == true)
        }
        try await Self.expectAlive(harness, "assassin")
    }

    @Test("no program runs unless granted, and no Unix socket reaches the session (seccomp); a granted program runs")
    func programs() async throws {
        let sandbox = try PluginSandbox()
        let denied = try await Self.load("runner", sandbox: sandbox)
        let allowed = try await Self.load("shell-user", permissions: #"{"exec": ["/bin/sh"]}"#, sandbox: sandbox)
        let socketPath = try TestFolder.make("bus").appendingPathComponent("bus").path
        let bus = try UnixServer(path: socketPath)

        let ran = try await Self.attempt(denied, "runner", "exec", ["program": "/bin/sh"])
        let reached = try await Self.attempt(denied, "runner", "unix", ["path": .string(socketPath)])
        let granted = try await Self.attempt(allowed, "shell-user", "exec", ["program": "/bin/sh"])

        #expect(ran["ok"] == false && ran["errno"] == 1, "EPERM: \(ran)")
        #expect(reached["ok"] == false, "\(reached)")
        #expect(granted["ok"] == true, "\(granted)")
        _ = bus
        try await Self.expectAlive(denied, "runner")
    }

    @Test("every process a plugin starts ends with it, a double-forked one in a session of its own too (PID namespace)")
    func orphans() async throws {
        let sandbox = try PluginSandbox()
        let harness = try await Self.load("forker", sandbox: sandbox)
        #expect(try await Self.attempt(harness, "forker", "orphan")["ok"] == true)
        let processes = Self.processes(of: "forker")
        #expect(processes.count >= 4, "the host, its init, the plugin and the grandchild: \(processes)")

        try await harness.setEnabled("forker", false)

        if Self.kernel?.pidNamespace == true {
            #expect(await eventually { Self.processes(of: "forker").isEmpty }, "left running: \(Self.processes(of: "forker"))")
        }
        for pid in Self.processes(of: "forker") { kill(pid, SIGKILL) }
    }

    /// The live processes of plugin `id`'s host (forked ones keep its command line).
    static func processes(of id: String) -> [Int32] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap(Int32.init).filter { pid in
            let command = (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? ""
            let state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.split(separator: ")").last?
                .trimmingCharacters(in: .whitespaces) ?? "Z"
            return command.contains("trellis-plugin-host") && command.hasSuffix("\0\(id)\0") && !state.hasPrefix("Z")
        }
    }

    @Test("a 3 GiB shared mapping fails at the memory limit (RLIMIT_AS); the plugin goes on",
          .enabled(if: !runsUnderSanitizer, "a sanitizer's shadow memory would count against the limit, which is off there"))
    func sharedMemory() async throws {
        let sandbox = try PluginSandbox()
        let harness = try await Self.load("hoarder", sandbox: sandbox)
        let result = try await Self.attempt(harness, "hoarder", "map", ["bytes": .number(Double(3 << 30))])
        #expect(result["ok"] == false && result["errno"] == 12, "ENOMEM: \(result)")
        try await Self.expectAlive(harness, "hoarder")
    }

    @Test("a 5 MB event name gets TRELLIS_ERROR_INVALID_ARGUMENT, not a kill")
    func oversizedName() async throws {
        let sandbox = try PluginSandbox()
        let harness = try await Self.load("shouter", sandbox: sandbox)
        let result = try await Self.attempt(harness, "shouter", "name", ["bytes": 5_000_000])
        #expect(result["text"] == "-1", "\(result)")
        try await Self.expectAlive(harness, "shouter")
    }

    @Test("the environment is the allow-list's: no session secrets; a granted variable passes")
    func environment() async throws {
        // A variable of this process's environment that the allow-list leaves out, the session's
        // secrets first. (Not one set here: `setenv` while other tests start processes frees
        // the array they read.)
        let allowed = Set(PluginConfinement.inheritedEnvironment + ["HOME", "TMPDIR", "TRELLIS_SHELL_PID", "SWIFT_BACKTRACE"])
        let shell = ProcessInfo.processInfo.environment.filter {
            !allowed.contains($0.key) && !$0.key.hasPrefix("LC_") && PluginResourceGrants.isGrantableVariable($0.key) && !$0.value.isEmpty
        }
        let preferred = ["DBUS_SESSION_BUS_ADDRESS", "SSH_AUTH_SOCK", "XDG_RUNTIME_DIR", "DISPLAY", "USER", "PWD"]
        let secret = try #require(preferred.first { shell[$0] != nil } ?? shell.keys.sorted().first,
                                  "the test process has no variable outside the plugins' allow-list to check with")
        let sandbox = try PluginSandbox()
        let plain = try await Self.load("snoop", sandbox: sandbox)
        let granted = try await Self.load("reader", permissions: #"{"environment": ["\#(secret)"]}"#, sandbox: sandbox)

        let seen = try await Self.attempt(plain, "snoop", "environment")["text"]?.stringValue ?? ""
        let names = try JSONValue(jsonString: seen).arrayValue?.compactMap { $0.stringValue?.split(separator: "=").first.map(String.init) } ?? []
        #expect(!names.isEmpty && names.allSatisfy { allowed.contains($0) || $0.hasPrefix("LC_") }, "\(names)")
        #expect(!names.contains(secret))
        let grantedSeen = try await Self.attempt(granted, "reader", "environment")["text"]?.stringValue ?? ""
        let grantedVariables = try JSONValue(jsonString: grantedSeen).arrayValue ?? []
        #expect(grantedVariables.contains(.string("\(secret)=\(shell[secret] ?? "")")), "\(grantedSeen)")
    }

    @Test("an id of Trellis's own namespaces or of the app's routes is refused when found, with the reason")
    func reservedIDs() async throws {
        let sandbox = try PluginSandbox()
        for id in ["store", "plugin", "notification", "catalog"] { try sandbox.installAttacker(id) }
        let routes = RouteTable<RouteTarget>()
        try routes.add("/catalog", owner: "CatalogPage", target: .controller(PageController.self, action: nil))
        try routes.add("/catalog/:id", owner: "CatalogPage", target: .controller(PageController.self, action: nil))
        let harness = PluginHarness(sandbox: sandbox, routes: routes)

        let reports = harness.host.survey()

        for id in ["store", "plugin", "notification"] {
            #expect(reports[id: id]?.state.failure?.description.contains("is an event namespace of Trellis's own") == true, "\(reports)")
        }
        #expect(reports[id: "catalog"]?.state.failure?.description.contains("is taken by the app's route /catalog") == true)
        #expect(PluginReservedNames.appRoute(shadowedBy: try RoutePattern("/catalog/3"), among: routes.entries.map(\.pattern)) != nil)
        #expect(PluginReservedNames.appRoute(shadowedBy: try RoutePattern("/weather/3"), among: routes.entries.map(\.pattern)) == nil)
    }

    @Test("a manifest that is a FIFO, a device or writable by others is refused, without blocking")
    func untrustedFiles() throws {
        let sandbox = try PluginSandbox()
        let fifo = sandbox.root.appendingPathComponent("fifo")
        try FileManager.default.createDirectory(at: fifo, withIntermediateDirectories: true)
        #expect(mkfifo(fifo.appendingPathComponent("plugin.json").path, 0o644) == 0)
        let device = sandbox.root.appendingPathComponent("device")
        try FileManager.default.createDirectory(at: device, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: device.appendingPathComponent("plugin.json").path, withDestinationPath: "/dev/zero")
        let loose = try sandbox.installAttacker("loose")
        try FileManager.default.setAttributes([.posixPermissions: 0o664], ofItemAtPath: loose.appendingPathComponent("plugin.json").path)

        let reports = PluginDiscovery(searchPaths: [PluginSearchPath(directory: sandbox.root, origin: .commandLine)]).discover()

        #expect(reports[id: "fifo"]?.state.failure?.description.contains("is not a regular file (a FIFO)") == true, "\(reports)")
        #expect(reports[id: "device"]?.state.failure?.description.contains("is not a regular file (a character device)") == true)
        #expect(reports[id: "loose"]?.state.failure?.description.contains("is group-writable (mode 664)") == true)
    }

    @Test("a folder above the plugin's that others may write is refused, naming that folder")
    func looseFolderAbove() throws {
        let sandbox = try PluginSandbox()
        let outer = sandbox.root.appendingPathComponent("shared")
        let folder = outer.appendingPathComponent("inner/plugin")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let manifest = folder.appendingPathComponent("plugin.json")
        try Data("{}".utf8).write(to: manifest)
        #expect(PluginFileSecurity().fileProblem(at: manifest) == nil)
        try FileManager.default.setAttributes([.posixPermissions: 0o775], ofItemAtPath: outer.path)
        let resolvedOuter = PluginDiscovery.resolvingSymlinks(outer.path)
        #expect(PluginFileSecurity().fileProblem(at: manifest) == "\(resolvedOuter) is group-writable (mode 775); run chmod g-w on it")
    }

    @Test("the folder walk climbs one path component at a time, to the root", arguments: [
        ("/a/b/c", "/a/b"), ("/a", "/"), ("/", "/"), ("/home/ana/.local/share/trellis/plugins/x/plugin.json", "/home/ana/.local/share/trellis/plugins/x"),
        ("/tmp/é/ü", "/tmp/é"),
    ])
    func folderWalk(path: String, folder: String) {
        #expect(PluginFileSecurity.folder(containing: path) == folder)
    }

    @Test("a plugin the user installs waits for approval, in words; once approved it loads; a version asking for more waits again")
    func approval() async throws {
        let sandbox = try PluginSandbox()
        let folder = try sandbox.installAttacker("weather", permissions: #"{"network": ["api.example.org:443"]}"#)
        let user = [PluginSearchPath(directory: sandbox.root, origin: .user)]
        var harness = PluginHarness(searchPaths: user, settingsURL: sandbox.settingsURL, environment: sandbox.environment)

        var report = await harness.load()[id: "weather"]
        #expect(report?.state == .awaitingApproval(grants: ["connect to api.example.org:443"], more: false), "\(String(describing: report))")
        #expect(report?.state.description.contains("waiting for approval: asks to connect to api.example.org:443") == true)
        report = try await harness.host.approve("weather")
        #expect(report?.state == .loaded, "\(String(describing: report))")

        // A new version asking for more.
        var manifest = try JSONValue(jsonData: Data(contentsOf: folder.appendingPathComponent("plugin.json")))
        manifest["permissions"] = ["network": ["api.example.org:443"], "exec": ["/bin/sh"]]
        try manifest.jsonData().write(to: folder.appendingPathComponent("plugin.json"))
        harness = PluginHarness(searchPaths: user, settingsURL: sandbox.settingsURL, environment: sandbox.environment)
        report = await harness.load()[id: "weather"]
        #expect(report?.state.description.contains("waiting for approval: now also asks for run the programs /bin/sh") == true,
                "\(String(describing: report))")
    }

    @Test("what a kernel without Landlock networking or scoping lacks is said (Debian 12's 6.1: ABI 2), and confinement is then incomplete")
    func olderKernel() throws {
        let debian = try #require(PluginConfinementReport(json: [
            "landlock": 2, "landlockFiles": true, "landlockNetwork": false, "landlockScoped": false, "seccomp": true,
            "noNewPrivileges": true, "userNamespace": true, "pidNamespace": true, "ipcNamespace": true, "networkNamespace": true,
            "shellWatch": true, "memoryLimit": true, "warnings": [],
        ]))
        #expect(debian.summary == "Landlock 2: files · seccomp · PID/user/IPC/network namespaces")
        #expect(debian.missing.contains { $0.hasPrefix("Landlock network rules: this kernel has Landlock ABI 2") })
        #expect(debian.missing.contains { $0.hasPrefix("Landlock signal and socket scoping") })
        #expect(debian.isComplete, "no grant asks for what it lacks")
        let withPorts = debian.applied(to: PluginResourceGrants(network: ["127.0.0.1:8080"]))
        #expect(!withPorts.isComplete)
        #expect(withPorts.warnings == ["network: granted ports cannot be enforced on this kernel (Landlock ABI 4 needed): every host and port is reachable"])
        if let kernel = Self.kernel, kernel.landlockABI >= 6 {
            #expect(kernel.summary.hasPrefix("Landlock \(kernel.landlockABI): files, network, signals · seccomp · PID/"), "\(kernel.summary)")
        }
    }
}

/// A TCP server on 127.0.0.1 (an ephemeral port) that keeps what its first client sends.
final class LoopbackServer: Sendable {
    let descriptor: Int32
    let port: Int

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound, listen(fd, 4) == 0 else { close(fd); throw POSIXError(.EADDRINUSE) }
        descriptor = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }

    /// What the first client sent, if one connected (waits for it a little: it connected already).
    func received() -> String? {
        var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&ready, 1, 5000) == 1 else { return nil }
        let client = accept(descriptor, nil, nil)
        guard client >= 0 else { return nil }
        defer { close(client) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(client, &buffer, buffer.count)
        return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil
    }
}

/// A Unix-domain socket listening at `path`, as the session bus and the X server do.
final class UnixServer: Sendable {
    let descriptor: Int32

    init(path: String) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (index, byte) in path.utf8.prefix(bytes.count - 1).enumerated() { bytes[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0 }
        }
        guard bound, listen(fd, 1) == 0 else { close(fd); throw POSIXError(.EADDRINUSE) }
        descriptor = fd
    }

    deinit { close(descriptor) }
}
