// trellis-plugin-host LIBRARY PLUGIN-ID: runs one plugin in a process of its own, for the
// shell that started it with a socket on file descriptor 3 (see PluginProcessHost). No GTK,
// no store: a plugin that crashes or hangs here takes only this process down.
import Foundation
import TrellisCore

signal(SIGPIPE, SIG_IGN)
let arguments = CommandLine.arguments
guard arguments.count == 3, fcntl(3, F_GETFD) != -1 else {
    FileHandle.standardError.write(Data("usage: trellis-plugin-host LIBRARY PLUGIN-ID, started by the Trellis shell with its socket on fd 3\n".utf8))
    exit(2)
}
/// The one plugin this process hosts; the host table's functions reach it here.
let processHost = PluginProcessHost(wire: PluginWire(descriptor: 3), pluginID: arguments[2])
exit(processHost.run(library: URL(fileURLWithPath: arguments[1])))
