import Foundation

/// Broken plugins in C, compiled with `cc` at test time: each variant breaks the ABI in one way
/// that a well-behaved SDK plugin cannot.
enum CFixturePlugin {
    /// One way to misbehave, as preprocessor definitions of `source`.
    enum Variant {
        /// Exports no `trellis_plugin_entry`.
        case noEntry
        /// The entry returns NULL.
        case nullInfo
        /// The info claims another ABI version than the manifest.
        case infoABI(Int)
        /// The info carries a refusal.
        case refusal(String)
        /// The entry registers a service named `name`.
        case registers(String)

        var definitions: [String] {
            switch self {
            case .noEntry: return ["-DNO_ENTRY"]
            case .nullInfo: return ["-DNULL_INFO"]
            case .infoABI(let version): return ["-DINFO_ABI=\(version)"]
            case .refusal(let text): return ["-DREFUSAL=\"\(text)\""]
            case .registers(let name): return ["-DSERVICE=\"\(name)\""]
            }
        }
    }

    static let source = """
        #include "trellis_plugin.h"
        #ifndef INFO_ABI
        #define INFO_ABI TRELLIS_PLUGIN_ABI_VERSION
        #endif
        #ifndef REFUSAL
        #define REFUSAL 0
        #endif
        static int32_t start (void *d, const char *o, char *e, size_t n) { (void) d; (void) o; (void) e; (void) n; return TRELLIS_OK; }
        static void stop (void *d, const char *o) { (void) d; (void) o; }
        static const trellis_plugin_info info = { INFO_ABI, sizeof (trellis_plugin_info), REFUSAL };
        #ifdef NO_ENTRY
        int trellis_plugin_something_else (void) { return 0; }
        #else
        const trellis_plugin_info *trellis_plugin_entry (const trellis_host_api *host) {
        #ifdef SERVICE
          trellis_service_definition service = { sizeof service, SERVICE, 0, start, stop, 0 };
          host->register_service (host->context, &service);
        #else
          (void) host; (void) start; (void) stop;
        #endif
        #ifdef NULL_INFO
          return 0;
        #else
          return &info;
        #endif
        }
        #endif
        """

    /// Compiles `variant` into the shared library `output`.
    static func build(_ variant: Variant, to output: URL) throws {
        try CCompiler.build(source, definitions: variant.definitions, to: output)
    }
}

extension PluginSandbox {
    /// Installs a C fixture plugin `id` declaring `services`, built as `variant`.
    @discardableResult
    func installFixture(_ id: String, _ variant: CFixturePlugin.Variant, services: [String] = []) throws -> URL {
        let folder = try writeManifest(folder: id, """
            {"id": "\(id)", "name": "Fixture \(id)", "version": "0.0.1", "abiVersion": 2,
             "library": "lib\(id).so", "services": [\(services.map { "\"\($0)\"" }.joined(separator: ", "))]}
            """)
        try CFixturePlugin.build(variant, to: folder.appendingPathComponent("lib\(id).so"))
        return folder
    }
}
