/// The messages models and collections trigger on the event bus.
///
/// Every message is triggered *from* the model or collection, so a watcher can follow one
/// object with `bus.watch(ModelEvents.change, from: note, owner: self)`, or all of them
/// with `bus.watch("model:*", owner: self)`. The data always names the resource:
/// `{"url": "<resource URL>", "id": "<server id or null>", "cid": "<client id>"}`, plus
/// the members listed with each message.
public enum ModelEvents {
    /// Attributes changed: `"changed"` holds the new values (`null` for removed keys).
    public static let change = "model:change"
    /// A request is about to be sent: `"method"`.
    public static let request = "model:request"
    /// The server accepted a request: `"method"`, `"status"`.
    public static let sync = "model:sync"
    /// A request failed: `"method"`, `"error"` (the description), `"status"` for HTTP errors.
    public static let error = "model:error"
    /// The model was deleted on the server (or was new and is dropped).
    public static let destroy = "model:destroy"
    /// Validation failed: `"reason"`. Nothing was sent or set.
    public static let invalid = "model:invalid"

    /// One attribute changed: `model:change:<key>`, with `"value"` (triggered before
    /// ``change``).
    public static func change(_ key: String) -> String { "model:change:\(key)" }
}

/// The messages a ``RemoteCollection`` triggers on the event bus, from the collection.
/// The data always has `"url"` (the collection's URL); model messages add `"id"`, `"cid"`
/// and `"index"`.
public enum CollectionEvents {
    /// A model was added at `"index"`.
    public static let add = "collection:add"
    /// A model was removed from `"index"` (its index before the removal).
    public static let remove = "collection:remove"
    /// Every model was replaced: `"count"`.
    public static let reset = "collection:reset"
    /// The order of the models changed.
    public static let sort = "collection:sort"
    /// A merge changed something: `"added"`, `"removed"`, `"changed"` (arrays of ids).
    public static let update = "collection:update"
    /// A fetch is about to be sent: `"method"`.
    public static let request = "collection:request"
    /// A fetch succeeded: `"status"`.
    public static let sync = "collection:sync"
    /// A fetch failed: `"method"`, `"error"`, `"status"` for HTTP errors.
    public static let error = "collection:error"
}
