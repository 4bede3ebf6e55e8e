import TrellisCore
import Foundation
import TrellisPluginABI

/// A plugin's shared library, opened with `dlopen(RTLD_NOW | RTLD_LOCAL)` and never closed:
/// the Swift runtime cannot unload an image (a later `swift_conformsToProtocol` crashes after
/// `dlclose`), so a loaded plugin stays mapped for the life of the process.
///
/// `RTLD_NOW` makes a missing symbol fail here, with the loader's message, rather than at
/// the first call; `RTLD_LOCAL` keeps each plugin's symbols (its private copies of the SDK
/// and TrellisShared among them) out of the global namespace, so plugins cannot interpose on each other.
package struct PluginLibrary {
    /// The plugin's entry function.
    package let entry: trellis_plugin_entry_fn

    /// Opens the library at `url` and finds its entry symbol.
    package static func open(_ url: URL) -> Result<PluginLibrary, PluginFailure> {
        guard let handle = dlopen(url.path, RTLD_NOW | RTLD_LOCAL) else {
            return .failure(.libraryUnloadable(path: url.path, reason: lastError() ?? "unknown dlopen error"))
        }
        // Clear any stale error so that a NULL symbol is told apart from a failed lookup.
        _ = dlerror()
        guard let symbol = dlsym(handle, TRELLIS_PLUGIN_ENTRY_SYMBOL) else {
            // The handle is deliberately not closed: see the type's comment.
            return .failure(.entryMissing(path: url.path, symbol: TRELLIS_PLUGIN_ENTRY_SYMBOL))
        }
        return .success(PluginLibrary(entry: unsafeBitCast(symbol, to: trellis_plugin_entry_fn.self)))
    }

    private static func lastError() -> String? {
        dlerror().map { String(cString: $0) }
    }
}
