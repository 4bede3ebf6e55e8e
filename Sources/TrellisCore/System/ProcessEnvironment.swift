#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The process environment as a dictionary: what `ProcessInfo.processInfo.environment` gives,
/// read at about a quarter of its cost.
///
/// ```swift
/// let home = ProcessEnvironment.current["HOME"]
/// ```
///
/// Foundation's getter finds each entry's `=` by walking its characters (grapheme breaking) and
/// builds a new dictionary at every read; the window's start read it 14 times, 0.46 M
/// instructions each (callgrind), about a millisecond of the main thread before the first
/// frame. This reads the same entries, split at the first `=` byte. Values are not cached: an
/// environment that `setenv` changed is read as it is now.
public enum ProcessEnvironment {
    /// Every variable set now, by name (for a name set twice, the later entry).
    public static var current: [String: String] {
        // `clearenv()` leaves `environ` NULL.
        let entries: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ
        guard let entries else { return [:] }
        return variables(in: entries)
    }

    /// The variables of a C environment: a NULL-terminated array of NUL-terminated
    /// "NAME=value" strings; an entry with no `=` is skipped, as Foundation skips it.
    static func variables(in entries: UnsafePointer<UnsafeMutablePointer<CChar>?>) -> [String: String] {
        var variables: [String: String] = [:]
        var entry = entries
        // Safe as Foundation's own getter is (its lock covers only Foundation's changes): each
        // entry is copied into Strings before the next step. Trellis changes the environment
        // only on the main thread before its other threads start (RendererChoice). Removing a
        // variable on another thread meanwhile shifts the entries in place: one may be missed
        // or read twice, none is freed (glibc keeps the strings setenv made).
        while let pointer = entry.pointee {
            let bytes = UnsafeRawBufferPointer(start: pointer, count: strlen(pointer))
            if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
                variables[String(decoding: bytes[..<equals], as: UTF8.self)] =
                    String(decoding: bytes[(equals + 1)...], as: UTF8.self)
            }
            entry += 1
        }
        return variables
    }
}
