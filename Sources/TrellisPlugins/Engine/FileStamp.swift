import Foundation

/// When a file was last modified and its size, read with one `stat(2)`: what the plugin
/// discovery compares between builds and the development watcher between looks.
///
/// `FileManager.attributesOfItem` would tell the same, but it also names the file's owner and
/// group, reading `/etc/passwd` and `/etc/group` at each call: once per plugin at start, and
/// ten times a second per watched file.
struct FileStamp: Sendable {
    /// The modification time, in nanoseconds since 1970.
    let modified: Int64
    /// The size in bytes.
    let size: Int64

    /// The stamp of the file at `path` (symbolic links followed), or nil when there is none.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        size = Int64(info.st_size)
    }
}
