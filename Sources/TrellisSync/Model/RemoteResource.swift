import Foundation
import TrellisCore

/// One resource as the server represents it: a JSON object with an `id`, an optional
/// `version`, and the attributes.
///
/// ```swift
/// let resource = RemoteResource(json: ["id": "7", "version": 3, "title": "Shopping"])
/// assert(resource?.id == "7")
/// assert(resource?.version == "3")
/// assert(resource?.attributes == ["title": "Shopping"])
/// ```
///
/// Ids and versions may be strings or integral numbers; both are kept as text (the
/// client only ever compares them for equality).
public struct RemoteResource: Sendable, Hashable {
    /// The key of the server id in a resource object.
    public static let idKey = "id"
    /// The key of the version in a resource object (the `ETag` header wins when present).
    public static let versionKey = "version"

    /// The server id; `nil` in a resource the server has not stored yet.
    public var id: String?
    /// The server version, as text.
    public var version: String?
    /// Every member except `id` and `version`.
    public var attributes: [String: JSONValue]

    /// A resource with these members.
    public init(id: String?, version: String?, attributes: [String: JSONValue]) {
        self.id = id
        self.version = version
        self.attributes = attributes
    }

    /// Reads a resource object; `nil` when `json` is not an object or its `id` or
    /// `version` is neither a string nor an integral number.
    public init?(json: JSONValue, etagVersion: String? = nil) {
        guard var attributes = json.objectValue else { return nil }
        let id = Identifier(attributes.removeValue(forKey: Self.idKey))
        let version = Identifier(attributes.removeValue(forKey: Self.versionKey))
        guard id != .invalid, version != .invalid else { return nil }
        self.init(id: id.text, version: etagVersion ?? version.text, attributes: attributes)
    }

    /// An id or version member: a string as it is, an integral number as its decimal text.
    private enum Identifier: Equatable {
        case absent
        case text(String)
        case invalid

        init(_ value: JSONValue?) {
            switch value {
            case nil, .null?: self = .absent
            case .string(let text)?: self = .text(text)
            case .number?: self = value?.intValue.map { .text(String($0)) } ?? .invalid
            default: self = .invalid
            }
        }

        var text: String? {
            if case .text(let text) = self { return text }
            return nil
        }
    }
}

extension URL {
    /// The URL of the member `id` of the collection at this URL: the id is appended as one
    /// path segment, percent-encoded (so an id with a `/` stays one segment).
    func appendingResourceID(_ id: String) -> URL {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove("/")
        let segment = id.addingPercentEncoding(withAllowedCharacters: allowed) ?? id
        let base = absoluteString.hasSuffix("/") ? String(absoluteString.dropLast()) : absoluteString
        return URL(string: base + "/" + segment) ?? appendingPathComponent(id)
    }
}
