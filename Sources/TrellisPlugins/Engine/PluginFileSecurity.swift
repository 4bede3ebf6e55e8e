import TrellisCore
import Foundation

/// Refuses plugin files someone else could have changed, as ssh refuses loose key files, and
/// files that are not files: a manifest or library must be a regular file (not a FIFO, which
/// would block whoever reads it, nor a device such as `/dev/zero`), owned by the effective user
/// (or by root, so that plugins installed system-wide load), and neither it nor any folder
/// above it may be writable by another user or group — up to the first folder that belongs
/// to someone else (the user's home in `/home`, say). A world-writable folder with the sticky
/// bit (`/tmp`) is accepted above that: nobody else can rename what is inside it. Symbolic
/// links are followed: what is actually opened counts. Nothing here opens a file, so nothing
/// here blocks.
///
/// ```swift
/// if let problem = PluginFileSecurity().fileProblem(at: manifestURL) { report(problem) }
/// ```
public struct PluginFileSecurity: Sendable {
    /// The user id a path may belong to besides root; the process's effective user by default.
    public var expectedOwner: uid_t

    /// A checker expecting `expectedOwner` (the effective user id by default).
    public init(expectedOwner: uid_t = geteuid()) {
        self.expectedOwner = expectedOwner
    }

    /// Why the folder or file at `url` must not be trusted, or `nil`: it is owned by the
    /// expected user or root and writable by nobody else (see the type's documentation).
    public func problem(at url: URL) -> String? {
        problem(atPath: url.path)
    }

    private func problem(atPath path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            return "\(path): cannot check permissions: \(String(cString: strerror(errno)))"
        }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFDIR || kind == S_IFREG else {
            return "\(path) is not a regular file or folder (\(Self.kindName(kind))); a plugin's files must be"
        }
        let mode = String(info.st_mode & 0o7777, radix: 8)
        if info.st_mode & S_IWOTH != 0 {
            return "\(path) is world-writable (mode \(mode)); run chmod o-w on it"
        }
        if info.st_mode & S_IWGRP != 0 {
            return "\(path) is group-writable (mode \(mode)); run chmod g-w on it"
        }
        if info.st_uid != expectedOwner && info.st_uid != 0 {
            return "\(path) is owned by \(Self.userName(info.st_uid)), not by \(Self.userName(expectedOwner)) or root"
        }
        return nil
    }

    /// Why the manifest or library at `url` must not be trusted, or `nil`: it must be a
    /// regular file (after symbolic links), pass ``problem(at:)``, and so must each folder
    /// above it that belongs to the same user as its own folder.
    public func fileProblem(at url: URL) -> String? {
        let path = url.path
        var info = stat()
        guard stat(path, &info) == 0 else {
            return "\(path): cannot check permissions: \(String(cString: strerror(errno)))"
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            return "\(path) is not a regular file (\(Self.kindName(info.st_mode & S_IFMT))); it was not opened"
        }
        if let problem = problem(atPath: path) { return problem }
        var folder = Self.folder(containing: PluginDiscovery.resolvingSymlinks(path))
        var owner: uid_t?
        while !folder.isEmpty {
            var folderInfo = stat()
            guard stat(folder, &folderInfo) == 0 else { break }
            if let owner, folderInfo.st_uid != owner {
                // Above the user's own folders: only a sticky world-writable folder (/tmp) or a
                // folder nobody else may write is fine, and the walk stops.
                break
            }
            owner = owner ?? folderInfo.st_uid
            let sticky = folderInfo.st_mode & S_ISVTX != 0
            if !(sticky && folderInfo.st_uid == 0), let problem = problem(atPath: folder) {
                return problem
            }
            if folder == "/" { break }
            folder = Self.folder(containing: folder)
        }
        return nil
    }

    /// The folder that holds `path`, an absolute path without a trailing `/` (as `realpath`
    /// gives it): `/a/b` for `/a/b/c`, `/` for `/a` and for `/`.
    static func folder(containing path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// The first problem among `urls`, in order.
    public func firstProblem(among urls: [URL]) -> String? {
        for url in urls {
            if let problem = problem(at: url) { return problem }
        }
        return nil
    }

    private static func kindName(_ kind: mode_t) -> String {
        switch kind {
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFDIR: "a folder"
        default: "not a regular file"
        }
    }

    private static func userName(_ uid: uid_t) -> String {
        let name = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 1024) { buffer -> String? in
            var entry = passwd()
            var result: UnsafeMutablePointer<passwd>?
            guard getpwuid_r(uid, &entry, buffer.baseAddress!, buffer.count, &result) == 0, result != nil,
                  let name = entry.pw_name else { return nil }
            return String(cString: name)
        }
        return name.map { "\($0) (uid \(uid))" } ?? "uid \(uid)"
    }
}
