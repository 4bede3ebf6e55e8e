import Foundation
import TrellisCore
import TrellisStore

/// What an ``EntitySync`` has learned about how a server's collection behaves: learned from
/// its answers, never assumed, and remembered in the store (`SyncServer`, one per collection
/// URL) so that a restart does not forget it. `nil` means "not known yet".
///
/// | capability | how it is learned |
/// | --- | --- |
/// | ``upsert`` | the first create is sent as `PUT <collection>/<client id>`: a 2xx answer means the server creates on PUT (json-server-py does); 404, 405 or another refusal means it does not, and creates are POSTed from then on |
/// | ``keepsClientID`` | whether the resource a create answers with (or a list) holds the `clientId` member sent |
/// | ``filtersByField`` | whether `GET <collection>?clientId=…` answers only the matching resources (JavaScript json-server does; json-server-py lists everything) |
/// | ``versions`` | whether resources carry a version (`ETag` or a `version` member): writes then carry `If-Match` |
/// | ``listETags`` | whether the list comes with an `ETag`: the next pass asks with `If-None-Match`, and a `304` ends the pull at once |
///
/// ```swift
/// let capabilities = notesSync.capabilities
/// let upsert = capabilities.upsert       // true against json-server-py
/// let versions = capabilities.versions   // false: json-server-py keeps no versions
/// ```
public struct ServerCapabilities: Sendable, Equatable, CustomStringConvertible {
    /// `PUT <collection>/<id>` to an unknown id creates the resource with that id.
    public var upsert: Bool?
    /// The server stores the client id member of a created resource and returns it.
    public var keepsClientID: Bool?
    /// `GET <collection>?clientId=<id>` lists only the resources with that client id.
    public var filtersByField: Bool?
    /// Resources carry a version, from an `ETag` header or a `version` member.
    public var versions: Bool?
    /// The list comes with an `ETag` (and may answer `If-None-Match` with 304).
    public var listETags: Bool?

    /// Nothing known yet.
    public init() {}

    /// One line for people: `upsert: yes, client id kept: yes, field filter: no, versions: no`.
    public var description: String {
        func word(_ value: Bool?) -> String { value.map { $0 ? "yes" : "no" } ?? "unknown" }
        return ["upsert: \(word(upsert))", "client id kept: \(word(keepsClientID))",
                "field filter: \(word(filtersByField))", "versions: \(word(versions))",
                "list ETag: \(word(listETags))"].joined(separator: ", ")
    }

    private static var keys: [(String, WritableKeyPath<ServerCapabilities, Bool?>)] {
        [
            ("upsert", \.upsert), ("keepsClientID", \.keepsClientID), ("filtersByField", \.filtersByField),
            ("versions", \.versions), ("listETags", \.listETags),
        ]
    }

    /// The capabilities as stored: known ones only.
    var json: JSONValue {
        var object: [String: JSONValue] = [:]
        for (key, path) in Self.keys { if let value = self[keyPath: path] { object[key] = .bool(value) } }
        return .object(object)
    }

    /// Reads stored capabilities; unknown or malformed members read as not known.
    init(json: JSONValue) {
        for (key, path) in Self.keys { self[keyPath: path] = json[key]?.boolValue }
    }
}

/// The capabilities of the sync's server as stored in its `SyncServer` object.
struct ServerProfile {
    static let entityName = "SyncServer"

    /// The collection URL the capabilities belong to.
    let url: URL
    let context: ManagedObjectContext

    /// The stored capabilities (none known for a server never seen).
    func load() throws -> ServerCapabilities {
        try object().map { ServerCapabilities(json: $0["capabilities"].jsonValue ?? .null) } ?? ServerCapabilities()
    }

    /// Stores `capabilities` in the context (saved with its next save).
    func store(_ capabilities: ServerCapabilities) throws {
        if let existing = try object() {
            existing["capabilities"] = .json(capabilities.json)
        } else {
            try context.insert(Self.entityName, values: ["url": .string(url.absoluteString),
                                                         "capabilities": .json(capabilities.json)])
        }
    }

    /// The ETag of the last list taken in whole, if the server gave one.
    func listETag() throws -> String? {
        try object()?["listETag"].stringValue
    }

    /// Keeps (or, `nil`, forgets) the ETag of the last list taken in whole (saved with the
    /// context's next save).
    func storeListETag(_ tag: String?) throws {
        if let existing = try object() {
            if existing["listETag"].stringValue != tag { existing["listETag"] = tag.map(AttributeValue.string) ?? .null }
        } else if let tag {
            try context.insert(Self.entityName, values: ["url": .string(url.absoluteString), "capabilities": .json(.object([:])),
                                                         "listETag": .string(tag)])
        }
    }

    /// The server's object, saved or inserted since the last save.
    private func object() throws -> ManagedObject? {
        let key = AttributeValue.string(url.absoluteString)
        return try context.fetch(FetchRequest(entityName: Self.entityName, predicate: .equal("url", key), limit: 1)).first
            ?? context.insertedObjects.first { $0.entityName == Self.entityName && $0["url"] == key }
    }
}
