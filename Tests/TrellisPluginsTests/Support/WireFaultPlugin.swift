import Foundation
@testable import TrellisPlugins
import TrellisCore

/// A plugin in C that, in a plugin process, writes bytes of its own to the process's socket
/// (fd 3) when it gets `crash:now`: a frame the shell cannot read, as a plugin that scribbles
/// over the wire would send. The bytes are made here, with the wire's own encoder.
enum WireFaultPlugin {
    /// What the plugin writes.
    enum Fault: String, CaseIterable, CustomStringConvertible {
        /// A frame whose length is far over the limit.
        case oversized
        /// A frame of a kind no message has.
        case unknownKind
        /// A frame whose name is longer than the frame.
        case nameTooLong
        /// A frame whose name is not UTF-8.
        case nameNotUTF8
        /// A message of the old wire: a line of JSON.
        case jsonLine
        /// The first half of a frame, then the socket closed (the process goes on).
        case truncated

        var description: String { rawValue }

        /// The bytes written.
        var bytes: [UInt8] {
            let trigger = PluginWire.frame(PluginMessage(.trigger, name: "wire:never", json: Array(#"{"n": 1}"#.utf8)))
            var frame = trigger
            switch self {
            case .oversized:
                return [0xFF, 0xFF, 0xFF, 0x7F] + trigger.dropFirst(4)
            case .unknownKind:
                frame[4] = 0xEE
            case .nameTooLong:
                frame[13] = 0xFF  // the name's size, little-endian: 255 + …
            case .nameNotUTF8:
                frame[17] = 0xFF  // the name's first byte
            case .jsonLine:
                return Array(#"{"op": "trigger", "name": "wire:never", "data": null}\#n"#.utf8)
            case .truncated:
                return Array(trigger.prefix(trigger.count / 2))
            }
            return frame
        }

        /// What the shell's report of the crash says.
        var reason: String {
            switch self {
            case .oversized: "it sent a malformed message: a frame of 2147483647 bytes, over the limit of 4194304"
            case .unknownKind: "it sent a malformed message: a frame of unknown kind 238"
            case .nameTooLong: "it sent a malformed message: a name of 255 bytes in a frame of"
            case .nameNotUTF8: "it sent a malformed message: a name that is not UTF-8"
            case .jsonLine: #"it sent a malformed message: a frame of 1886331515 bytes, over the limit of 4194304; it begins with "{" as a line of JSON does, the wire of earlier builds: are the shell and trellis-plugin-host from the same build?"#
            case .truncated: "it sent a malformed message: a frame cut short by the end of the stream"
            }
        }
    }

    /// The C source writing `fault`'s bytes.
    static func source(_ fault: Fault) -> String {
        """
        #include <unistd.h>
        #include "trellis_plugin.h"
        static const unsigned char bytes[] = { \(fault.bytes.map(String.init).joined(separator: ", ")) };
        static void handler (void *u, const char *m, const char *j) {
          (void) u; (void) m; (void) j;
          if (write (3, bytes, sizeof bytes) != (ssize_t) sizeof bytes) return;
        \(fault == .truncated ? "  close (3);\n  for (;;) pause ();" : "")
        }
        static const trellis_plugin_info info = { TRELLIS_PLUGIN_ABI_VERSION, sizeof (trellis_plugin_info), 0 };
        const trellis_plugin_info *trellis_plugin_entry (const trellis_host_api *host) {
          host->watch (host->context, "crash:now", handler, 0, 0);
          return &info;
        }
        """
    }
}

extension PluginSandbox {
    /// Installs wire-fault plugin `id` writing `fault`.
    @discardableResult
    func installWireFault(_ id: String, _ fault: WireFaultPlugin.Fault) throws -> URL {
        let folder = try writeManifest(folder: id, """
            {"id": "\(id)", "name": "Wire fault \(id)", "version": "0.0.1", "abiVersion": 2, "library": "lib\(id).so",
             "permissions": {"watch": ["crash:now"]}}
            """)
        try CCompiler.build(WireFaultPlugin.source(fault), definitions: ["-Wall", "-Werror"],
                            to: folder.appendingPathComponent("lib\(id).so"))
        return folder
    }
}
