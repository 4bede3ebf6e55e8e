/// What a merge (``RemoteCollection/set(_:)`` or ``RemoteCollection/fetch()``) did to a
/// collection: the models added, removed and changed, in the collection's final order
/// (removed ones in their former order).
@MainActor
public struct CollectionChanges {
    /// Models new to the collection.
    public internal(set) var added: [RemoteModel] = []
    /// Models no longer listed by the server.
    public internal(set) var removed: [RemoteModel] = []
    /// Models kept whose attributes changed.
    public internal(set) var changed: [RemoteModel] = []
    /// Whether the order of the kept models changed.
    public internal(set) var reordered = false

    /// Nothing changed.
    public var isEmpty: Bool { added.isEmpty && removed.isEmpty && changed.isEmpty && !reordered }
}
