import TrellisCore
import Foundation

/// Refuses plugin folders and libraries that someone else could have changed, as ssh refuses
/// loose key files: a path must be owned by the effective user (or by root, so that plugins
/// installed system-wide load) and must not be world-writable.
///
/// ```swift
/// if let problem = PluginFileSecurity().problem(at: libraryURL) { report(problem) }
/// ```
public struct PluginFileSecurity: Sendable {
    /// The user id a path may belong to besides root; the process's effective user by default.
    public var expectedOwner: uid_t

    /// A checker expecting `expectedOwner` (the effective user id by default).
    public init(expectedOwner: uid_t = geteuid()) {
        self.expectedOwner = expectedOwner
    }

    /// Why `url` must not be trusted, or `nil` when it is owned by the expected user or root
    /// and not world-writable. Symbolic links are followed: the file actually loaded counts.
    public func problem(at url: URL) -> String? {
        var info = stat()
        guard stat(url.path, &info) == 0 else {
            return "\(url.path): cannot check permissions: \(String(cString: strerror(errno)))"
        }
        if info.st_mode & S_IWOTH != 0 {
            return "\(url.path) is world-writable (mode \(String(info.st_mode & 0o7777, radix: 8))); run chmod o-w on it"
        }
        if info.st_uid != expectedOwner && info.st_uid != 0 {
            return "\(url.path) is owned by \(Self.userName(info.st_uid)), not by \(Self.userName(expectedOwner)) or root"
        }
        return nil
    }

    /// The first problem among `urls`, in order.
    public func firstProblem(among urls: [URL]) -> String? {
        for url in urls {
            if let problem = problem(at: url) { return problem }
        }
        return nil
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
