// trellis-plugin-host LIBRARY PLUGIN-ID: runs one plugin in a process of its own, for the
// shell that started it with a socket on file descriptor 3 (see PluginProcessHost). No GTK,
// no store: a plugin that crashes or hangs here takes only this process down.
import Foundation
import TrellisCore
import TrellisPlugins
import TrellisPluginABI

signal(SIGPIPE, SIG_IGN)
// Descriptors the shell had open without CLOEXEC are not the plugin's: a server's listening
// socket kept open here would go on accepting connections nobody answers once the shell
// closed it. (posix_spawn_file_actions_addclosefrom_np is not visible to Swift's Glibc.)
for descriptor in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.compactMap({ Int32($0) }) ?? []
where descriptor > 3 {
    close(descriptor)
}
let arguments = CommandLine.arguments
guard arguments.count == 3, fcntl(3, F_GETFD) != -1 else {
    FileHandle.standardError.write(Data("usage: trellis-plugin-host LIBRARY PLUGIN-ID, started by the Trellis shell with its socket on fd 3\n".utf8))
    exit(2)
}
ShellWatch.start()
let wire = PluginWire(descriptor: 3)
var reader = PluginWire.Reader(wire)
// The shell's first message: the plugin's permissions, read before any plugin code runs.
let gate: PluginGate
var settings = JSONValue.object([:])
do {
    guard let message = try reader.next(), message.op == .grants, let grants = message.value else { throw PluginProcessHost.NoGrants() }
    gate = try PluginGate(pluginID: arguments[2], grantsMessage: grants) { denial in
        wire.send(PluginMessage(.log, number: Int64(TRELLIS_LOG_WARNING), name: denial))
    }
    if let limit = grants["memoryLimit"]?.intValue { MemoryLimit.apply(bytes: limit) }
    if let values = grants["settings"], values.objectValue != nil { settings = values }
} catch {
    FileHandle.standardError.write(Data("trellis-plugin-host: the shell sent no valid grants: \(error)\n".utf8))
    exit(2)
}
/// The one plugin this process hosts; the host table's functions reach it here.
let processHost = PluginProcessHost(wire: wire, pluginID: arguments[2], gate: gate, settings: settings)
exit(processHost.run(library: URL(fileURLWithPath: arguments[1]), reader: &reader))
