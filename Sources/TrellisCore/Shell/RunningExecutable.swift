import Foundation

/// The program running now: where the pieces it finds beside itself (plugins, the plugin host,
/// libTrellisHTTP.so, translations) are looked for.
public enum RunningExecutable {
    /// Its file, symbolic links resolved.
    ///
    /// ```swift
    /// let folder = RunningExecutable.url.deletingLastPathComponent()   // .build/debug, say
    /// ```
    public static var url: URL {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path)
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
    }
}
