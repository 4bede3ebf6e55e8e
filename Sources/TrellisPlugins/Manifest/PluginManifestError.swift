import TrellisCore

/// Why a plugin manifest (`plugin.json`) could not be read; every case names the file, and the
/// key where one is at fault.
public enum PluginManifestError: Error, CustomStringConvertible, Hashable, Sendable {
    /// The file could not be read at all.
    case unreadable(file: String, reason: String)
    /// The file is larger than ``PluginManifest/maximumFileSize``; it was not read whole.
    case tooLarge(file: String, bytes: Int, limit: Int)
    /// The file is not valid JSON.
    case malformed(file: String, reason: String)
    /// The top-level JSON value is not an object.
    case notAnObject(file: String)
    /// A required key is absent.
    case missingKey(file: String, key: String)
    /// A key holds a value of the wrong JSON type.
    case wrongType(file: String, key: String, expected: String)
    /// A key holds a value of the right type that is still not acceptable.
    case invalidValue(file: String, key: String, reason: String)
    /// Several of the above, in the order the keys were checked: every problem of the manifest.
    indirect case several([PluginManifestError])

    /// The manifest file at fault.
    public var file: String {
        switch self {
        case .unreadable(let file, _), .tooLarge(let file, _, _), .malformed(let file, _), .notAnObject(let file),
             .missingKey(let file, _), .wrongType(let file, _, _), .invalidValue(let file, _, _):
            return file
        case .several(let errors):
            return errors.first?.file ?? ""
        }
    }

    /// Each problem on its own: the errors of ``several(_:)``, or this one.
    public var problems: [PluginManifestError] {
        if case .several(let errors) = self { return errors.flatMap(\.problems) }
        return [self]
    }

    public var description: String {
        switch self {
        case .unreadable(let file, let reason):
            return "\(file): cannot read the manifest: \(reason)"
        case .tooLarge(let file, let bytes, let limit):
            return "\(file): the manifest is \(bytes) bytes, over the limit of \(limit); it was not read"
        case .malformed(let file, let reason):
            return "\(file): the manifest is not valid JSON: \(reason)"
        case .notAnObject(let file):
            return "\(file): the manifest must be a JSON object"
        case .missingKey(let file, let key):
            return "\(file): required key \"\(key)\" is missing"
        case .wrongType(let file, let key, let expected):
            return "\(file): key \"\(key)\" must be \(expected)"
        case .invalidValue(let file, let key, let reason):
            return "\(file): key \"\(key)\": \(reason)"
        case .several(let errors):
            let file = self.file
            let each = errors.map { error in
                let text = error.description
                return text.hasPrefix(file + ": ") ? String(text.dropFirst(file.count + 2)) : text
            }
            return "\(file): \(errors.count) problems: " + each.joined(separator: "; ")
        }
    }
}
