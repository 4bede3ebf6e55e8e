import Foundation

/// A window's size and maximized state, remembered between runs in a small JSON file
/// (`$XDG_CONFIG_HOME/<app>/window-state.json`) — no GSettings schema to install, so it
/// works the same from a build folder, a prefix or a package.
///
/// ```swift
/// let file = WindowState.fileURL(application: "trellis")
/// if let saved = try WindowState.load(from: file) { print(saved.width, saved.height) }
/// try WindowState(width: 900, height: 700, maximized: false).save(to: file)
/// ```
public struct WindowState: Codable, Equatable, Sendable {
    /// The sizes accepted on load, in pixels; anything else is a damaged file.
    public static let sizeRange = 100...32_768

    /// The width of the window when not maximized.
    public var width: Int
    /// The height of the window when not maximized.
    public var height: Int
    /// Whether the window was maximized.
    public var maximized: Bool

    /// A state of `width` × `height` pixels.
    public init(width: Int, height: Int, maximized: Bool = false) {
        self.width = width
        self.height = height
        self.maximized = maximized
    }

    /// `$XDG_CONFIG_HOME/<application>/window-state.json` (`~/.config` when unset or not absolute,
    /// as the XDG Base Directory specification says).
    public static func fileURL(application: String,
                               environment: [String: String] = ProcessEnvironment.current) -> URL {
        let configHome: URL
        if let dir = environment["XDG_CONFIG_HOME"], dir.hasPrefix("/") {
            configHome = URL(fileURLWithPath: dir)
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            configHome = URL(fileURLWithPath: home).appendingPathComponent(".config")
        }
        return configHome.appendingPathComponent(application).appendingPathComponent("window-state.json")
    }

    /// The state saved in `url`; `nil` when there is no such file yet.
    public static func load(from url: URL) throws(WindowStateError) -> WindowState? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw .unreadable(path: url.path, reason: error.localizedDescription)
        }
        let state: WindowState
        do { state = try JSONDecoder().decode(WindowState.self, from: data) } catch {
            throw .malformed(path: url.path, reason: Self.describe(error))
        }
        for (key, value) in [("width", state.width), ("height", state.height)] where !sizeRange.contains(value) {
            throw .malformed(path: url.path, reason: "\(key) must be from \(sizeRange.lowerBound) to \(sizeRange.upperBound), not \(value)")
        }
        return state
    }

    /// Writes the state to `url` atomically, creating its folder.
    public func save(to url: URL) throws(WindowStateError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try encoder.encode(self).write(to: url, options: .atomic)
        } catch {
            throw .unwritable(path: url.path, reason: error.localizedDescription)
        }
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): return "\(key.stringValue) is missing"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "\(context.codingPath.map(\.stringValue).joined(separator: ".")): \(context.debugDescription)"
        case DecodingError.dataCorrupted(let context): return context.debugDescription
        default: return String(describing: error)
        }
    }
}

/// Why the window state file could not be used. Each case names the file.
public enum WindowStateError: Error, Equatable, CustomStringConvertible {
    /// The file exists but could not be read.
    case unreadable(path: String, reason: String)
    /// The file is not a window state, or holds sizes out of range.
    case malformed(path: String, reason: String)
    /// The file or its folder could not be written.
    case unwritable(path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): return "\(path): cannot read the window state: \(reason)"
        case .malformed(let path, let reason): return "\(path): damaged window state: \(reason)"
        case .unwritable(let path, let reason): return "\(path): cannot save the window state: \(reason)"
        }
    }
}
