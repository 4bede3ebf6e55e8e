import Foundation
import TrellisCore

/// A resource that lives on a server (iStructure's `ISModel`, Backbone's `Model`): an id,
/// JSON attributes and a URL, its collection's URL plus the id.
///
/// ```swift
/// let note = RemoteModel(collectionURL: notesURL, attributes: ["title": "Shopping"], sync: sync, bus: bus)
/// note.validate = { $0["title"]?.stringValue?.isEmpty == false ? nil : "a title is required" }
/// try await note.save()               // POST /notes → id and version from the server
/// note.set("title", "Groceries")      // model:change:title, model:change
/// try await note.save(.patch)         // PATCH /notes/<id> {"title": "Groceries"}, If-Match
/// try await note.destroy()            // DELETE /notes/<id>
/// ```
///
/// Models run on the main actor; requests go through their ``sync`` and suspend. Every
/// change and request is announced on the bus (see ``ModelEvents``), triggered from the
/// model, so a view can watch one model or all of them.
///
/// The model remembers the attributes the server last confirmed; ``changedAttributes`` is
/// the difference, what a PATCH sends. A known ``version`` makes PUT, PATCH and DELETE
/// conditional (`If-Match`): the server refuses them with 412 when the resource changed
/// since.
@MainActor
public final class RemoteModel {
    private static var nextClientID = 1

    /// A client id, unique in the process, given at creation (Backbone's `cid`): the
    /// identity of a model that has no server id yet.
    public let cid: String
    /// The server id; `nil` until the model is saved for the first time.
    public private(set) var id: String?
    /// The attributes, without `id` and `version`.
    public private(set) var attributes: [String: JSONValue]
    /// The server's version of the resource as last seen (its `ETag` or `version` member).
    public private(set) var version: String?
    /// The collection's URL (Backbone's `urlRoot`); the model's URL is this plus its id.
    public let collectionURL: URL
    /// The collection holding the model, if any.
    public internal(set) weak var collection: RemoteCollection?
    /// How requests are sent.
    public var sync: any Sync
    /// Where events are triggered.
    public let bus: EventBus?
    /// The validation hook (Backbone's `validate`): returns why the attributes are invalid,
    /// or `nil`. Checked by ``save(_:)`` and by ``set(_:validate:)`` when asked.
    public var validate: (@MainActor ([String: JSONValue]) -> String?)?
    /// Why the last validation failed, or `nil` after a successful one.
    public private(set) var validationError: String?
    /// The attributes as the server last confirmed them.
    private var confirmed: [String: JSONValue] = [:]
    /// Set while a collection merges the model, so the collection announces its change itself.
    var isMerging = false

    /// A model of the collection at `collectionURL`; give `id` (and `version`) for a
    /// resource that exists on the server.
    public init(collectionURL: URL, id: String? = nil, attributes: [String: JSONValue] = [:], version: String? = nil,
                sync: any Sync, bus: EventBus? = nil)
    {
        cid = "c\(Self.nextClientID)"
        Self.nextClientID += 1
        self.collectionURL = collectionURL
        self.id = id
        self.attributes = attributes
        self.version = version
        self.sync = sync
        self.bus = bus
        if id != nil { confirmed = attributes }
    }

    /// The resource's URL: the collection's URL for a new model, else the collection's URL
    /// with the id appended as one path segment.
    public var url: URL { id.map(collectionURL.appendingResourceID) ?? collectionURL }

    /// Whether the server has not seen the model yet (it has no id).
    public var isNew: Bool { id == nil }

    /// The attributes that differ from what the server last confirmed; removed attributes
    /// appear as `null`.
    public var changedAttributes: [String: JSONValue] {
        var changed = attributes.filter { confirmed[$0.key] != $0.value }
        for key in confirmed.keys where attributes[key] == nil { changed[key] = .null }
        return changed
    }

    /// The attributes with the id, as the server represents the resource.
    public var json: JSONValue {
        var object = attributes
        if let id { object[RemoteResource.idKey] = .string(id) }
        return .object(object)
    }

    /// The value of attribute `key`.
    public subscript(key: String) -> JSONValue? { attributes[key] }

    // MARK: - Setting attributes

    /// Sets one attribute (`nil` removes it); see ``set(_:validate:)``.
    public func set(_ key: String, _ value: JSONValue?) {
        if let value {
            applyChanges([key: value])
        } else {
            unset(key)
        }
    }

    /// Sets several attributes. Each attribute whose value changes triggers
    /// `model:change:<key>`, then `model:change` follows once if anything changed.
    ///
    /// - Parameter validate: check the resulting attributes first; if the hook rejects
    ///   them, `model:invalid` is triggered, nothing is set, and ``ModelError/invalid(url:reason:)``
    ///   is thrown.
    public func set(_ changes: [String: JSONValue], validate: Bool = false) throws(ModelError) {
        if validate { try check(attributes.merging(changes) { _, new in new }) }
        applyChanges(changes)
    }

    /// Removes attribute `key` (announced as a change to `null`).
    public func unset(_ key: String) {
        guard attributes.removeValue(forKey: key) != nil else { return }
        announce([key: .null])
    }

    /// Takes the server's representation: id, version and attributes (merged, as Backbone's
    /// `set`); they become the confirmed state. Returns whether any attribute changed.
    @discardableResult
    func apply(_ resource: RemoteResource) -> Bool {
        if let newID = resource.id { id = newID }
        if let newVersion = resource.version { version = newVersion }
        let changed = applyChanges(resource.attributes)
        confirmed = attributes
        return changed
    }

    /// Marks the current attributes as confirmed by the server.
    func confirm(version newVersion: String?) {
        if let newVersion { version = newVersion }
        confirmed = attributes
    }

    @discardableResult
    private func applyChanges(_ changes: [String: JSONValue]) -> Bool {
        let changed = changes.filter { attributes[$0.key] != $0.value }
        guard !changed.isEmpty else { return false }
        attributes.merge(changed) { _, new in new }
        announce(changed)
        return true
    }

    private func announce(_ changed: [String: JSONValue]) {
        for key in changed.keys.sorted() {
            trigger(ModelEvents.change(key), ["key": .string(key), "value": changed[key] ?? .null])
        }
        trigger(ModelEvents.change, ["changed": .object(changed)])
        if !isMerging { collection?.modelDidChange(self) }
    }

    // MARK: - Validation and events

    /// Runs the validation hook over `attributes`; on failure triggers `model:invalid` and throws.
    func check(_ attributes: [String: JSONValue]) throws(ModelError) {
        validationError = validate?(attributes)
        guard let reason = validationError else { return }
        trigger(ModelEvents.invalid, ["reason": .string(reason)])
        throw .invalid(url: url, reason: reason)
    }

    /// Triggers `message` from the model with the resource's url, id and cid added to `data`.
    func trigger(_ message: String, _ data: [String: JSONValue] = [:]) {
        guard let bus else { return }
        var payload = data
        payload["url"] = .string(url.absoluteString)
        payload["id"] = id.map(JSONValue.string) ?? .null
        payload["cid"] = .string(cid)
        bus.trigger(message, .object(payload), from: self)
    }
}

/// Key-value reading for cell providers: `id`, `cid`, `version` or an attribute.
extension RemoteModel: @MainActor KeyValueCoding {
    /// The value of `key`, or `nil` when the model has none.
    public func value(forKey key: String) -> JSONValue? {
        switch key {
        case RemoteResource.idKey: return id.map(JSONValue.string)
        case "cid": return .string(cid)
        case RemoteResource.versionKey: return version.map(JSONValue.string)
        default: return attributes[key]
        }
    }
}

