import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The plugin process's memory limit: `RLIMIT_DATA` (the heap and private writable mappings,
/// thread stacks among them), set before the plugin's library is opened. Past it, `malloc`
/// returns NULL and mappings fail: a C plugin that checks aborts, one that does not crashes,
/// and a Swift plugin stops with "could not allocate memory" — each reported by the shell as a
/// crash with the plugin's last stderr lines, never the machine swapping for it.
enum MemoryLimit {
    /// Applies a limit of `bytes`, except in a sanitizer build (ThreadSanitizer and
    /// AddressSanitizer map terabytes of shadow memory, which the limit would count).
    static func apply(bytes: Int) {
        guard bytes > 0, !runsUnderSanitizer else { return }
        var limit = rlimit(rlim_cur: rlim_t(bytes), rlim_max: rlim_t(bytes))
        if setrlimit(Int32(RLIMIT_DATA.rawValue), &limit) != 0 {
            FileHandle.standardError.write(Data("trellis-plugin-host: cannot limit memory to \(bytes) bytes: \(String(cString: strerror(errno)))\n".utf8))
        }
    }

    /// True when this process carries a sanitizer's runtime.
    static var runsUnderSanitizer: Bool {
        let everywhere = UnsafeMutableRawPointer(bitPattern: 0)  // RTLD_DEFAULT
        return dlsym(everywhere, "__tsan_init") != nil || dlsym(everywhere, "__asan_init") != nil
    }
}
