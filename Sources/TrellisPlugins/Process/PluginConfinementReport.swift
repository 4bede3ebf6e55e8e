import TrellisCore
import Foundation

/// What confines a plugin's process, as `trellis-plugin-host` applied it (the `confinement`
/// of its `entry` message) or as this kernel offers it (`trellis-plugin-host --probe`), for
/// people: `trellis plugins` and the Plugins page show ``summary`` and ``missing``.
///
/// ```swift
/// if let kernel = PluginConfinementReport.probe() {
///     print(kernel.summary)          // Landlock 7: files, network, signals · seccomp · PID/user/IPC/network namespaces
///     kernel.missing.forEach { print("missing:", $0) }
/// }
/// ```
public struct PluginConfinementReport: Sendable, Hashable {
    /// The Landlock ABI version (0: none), and what of it applies.
    public var landlockABI: Int
    public var landlockFiles: Bool
    public var landlockNetwork: Bool
    public var landlockScoped: Bool
    /// Why Landlock is not there or did not apply.
    public var landlockMissing: String?
    public var seccomp: Bool
    public var noNewPrivileges: Bool
    public var userNamespace: Bool
    public var pidNamespace: Bool
    public var ipcNamespace: Bool
    public var networkNamespace: Bool
    /// Why the namespaces are not there.
    public var namespaceMissing: String?
    /// Whether the plugin ends with the shell, however the shell ends.
    public var shellWatch: Bool
    /// Whether the memory limit counts every mapping (`RLIMIT_AS`).
    public var memoryLimit: Bool
    /// Grants this kernel cannot enforce as asked.
    public var warnings: [String]

    /// The report in `json` (the host's shape); nil when it is not one.
    public init?(json: JSONValue) {
        guard let abi = json["landlock"]?.intValue else { return nil }
        func flag(_ key: String) -> Bool { json[key]?.boolValue ?? false }
        landlockABI = abi
        landlockFiles = flag("landlockFiles")
        landlockNetwork = flag("landlockNetwork")
        landlockScoped = flag("landlockScoped")
        landlockMissing = json["landlockMissing"]?.stringValue
        seccomp = flag("seccomp")
        noNewPrivileges = flag("noNewPrivileges")
        userNamespace = flag("userNamespace")
        pidNamespace = flag("pidNamespace")
        ipcNamespace = flag("ipcNamespace")
        networkNamespace = flag("networkNamespace")
        namespaceMissing = json["namespaceMissing"]?.stringValue
        shellWatch = flag("shellWatch")
        memoryLimit = flag("memoryLimit")
        warnings = json["warnings"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    /// One line: `Landlock 7: files, network, signals · seccomp · PID/user/IPC/network namespaces`.
    public var summary: String {
        var parts: [String] = []
        if landlockFiles {
            parts.append("Landlock \(landlockABI): " + (["files"] + (landlockNetwork ? ["network"] : []) + (landlockScoped ? ["signals"] : []))
                .joined(separator: ", "))
        }
        if seccomp { parts.append("seccomp") }
        let spaces = [(pidNamespace, "PID"), (userNamespace, "user"), (ipcNamespace, "IPC"), (networkNamespace, "network")]
            .filter(\.0).map(\.1)
        if !spaces.isEmpty { parts.append(spaces.joined(separator: "/") + " namespaces") }
        return parts.isEmpty ? "nothing (this kernel offers no confinement)" : parts.joined(separator: " · ")
    }

    /// What is missing on this kernel, and why, one line each (empty when nothing is).
    public var missing: [String] {
        var lines: [String] = []
        if !landlockFiles {
            lines.append("file confinement: \(landlockMissing ?? "Landlock is not available"); the plugin can read and write what its user can")
        } else {
            if landlockABI < 4 {
                lines.append("Landlock network rules: this kernel has Landlock ABI \(landlockABI) (they came with ABI 4, Linux 6.7); without a network grant the plugin has no network at all (network namespace, seccomp), with one it reaches every port")
            }
            if !landlockScoped {
                lines.append("Landlock signal and socket scoping: this kernel has Landlock ABI \(landlockABI) (it came with ABI 6, Linux 6.12); the PID and network namespaces hide the shell instead")
            }
        }
        if !seccomp { lines.append("seccomp: not available; ptrace, io_uring, execve and the rest are not filtered") }
        if !pidNamespace {
            lines.append("namespaces: \(namespaceMissing ?? "not available"); the plugin sees the other processes, and a process it starts may outlive it")
        }
        if !shellWatch { lines.append("the plugin may outlive a shell that is killed (no pidfd on this kernel)") }
        return lines + warnings
    }

    /// Whether the essentials are in force: files confined, system calls filtered, the shell
    /// hidden, and every grant enforced as asked (what `--require-confinement` demands).
    public var isComplete: Bool {
        landlockFiles && seccomp && pidNamespace && warnings.isEmpty
    }

    /// What this kernel would apply to a plugin with `grants`: the probe's report, with the
    /// network namespace only where no network is granted, and a warning where the kernel
    /// cannot enforce the granted ports.
    public func applied(to grants: PluginResourceGrants) -> PluginConfinementReport {
        var report = self
        if !grants.network.isEmpty {
            report.networkNamespace = false
            if grants.allowsAnyNetwork {
                report.landlockNetwork = false
            } else if !landlockNetwork {
                report.warnings.append("network: granted ports cannot be enforced on this kernel (Landlock ABI 4 needed): every host and port is reachable")
            } else {
                report.warnings.append("network: the ports granted are enforced, not the hosts (Landlock's rules are by port)")
            }
        }
        return report
    }

    /// What this kernel offers, asked once of `trellis-plugin-host --probe` (nil when the
    /// plugin host is not installed).
    public static func probe() -> PluginConfinementReport? {
        probed.withLock { probed in
            if let probed { return probed }
            let result = runProbe()
            probed = .some(result)
            return result
        }
    }

    private static let probed = LockedState<PluginConfinementReport??>(nil)

    private static func runProbe() -> PluginConfinementReport? {
        guard let executable = PluginProcessLaunch.candidates().first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            return nil
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--probe"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (try? JSONValue(jsonData: data)).flatMap(PluginConfinementReport.init(json:))
    }
}
