import Foundation
import TrellisCore

/// The models of one server collection, in order (iStructure's `ISCollection`, Backbone's
/// `Collection`), and a live `TableSource` over them.
///
/// ```swift
/// let notes = RemoteCollection(url: URL(string: "https://notes.example/api/notes")!, sync: sync, bus: bus)
/// notes.comparator = { ($0["title"]?.stringValue ?? "") < ($1["title"]?.stringValue ?? "") }
/// let changes = try await notes.fetch()     // GET, then a smart merge by id
/// print(changes.added.count)                // models new since the last fetch
/// let note = try await notes.create(["title": "Shopping"])   // POST, then added
/// let list = TableContainer(source: notes, cells: KeyValueCellProvider(keys: ["title"]))
/// ```
///
/// Every change of the models is announced twice: on the bus for the app (see
/// ``CollectionEvents``) and through ``changes`` as table changes, one at a time, each
/// after it is applied, so a table container follows the collection live. Row identities
/// are the models' client ids (``RemoteModel/cid``), stable before and after the server
/// gives an id.
@MainActor
public final class RemoteCollection: TableSource {
    /// The collection's URL; its models' URLs are this plus their ids.
    public let url: URL
    /// How requests are sent (and given to the models the collection makes).
    public var sync: any Sync
    /// Where events are triggered.
    public let bus: EventBus?
    /// The models, in order.
    public internal(set) var models: [RemoteModel] = []
    /// The validation hook given to every model the collection makes.
    public var validate: (@MainActor ([String: JSONValue]) -> String?)?
    /// Keeps the models sorted when set (Backbone's `comparator`): `true` when the first
    /// model goes before the second. Setting it sorts at once. `nil` keeps the server's order.
    public var comparator: (@MainActor (RemoteModel, RemoteModel) -> Bool)? {
        didSet { sort() }
    }

    /// The table changes, announced after each is applied.
    public let changes = TableChangeObservers()

    /// An empty collection at `url`.
    public init(url: URL, sync: any Sync, bus: EventBus? = nil) {
        self.url = url
        self.sync = sync
        self.bus = bus
    }

    /// How many models there are.
    public var count: Int { models.count }

    /// The model with server id `id`.
    public func model(id: String) -> RemoteModel? { models.first { $0.id == id } }

    /// The model with client id `cid`.
    public func model(cid: String) -> RemoteModel? { models.first { $0.cid == cid } }

    /// A new model of the collection, not yet added: the collection's sync, bus and
    /// validation hook.
    public func makeModel(id: String? = nil, attributes: [String: JSONValue] = [:], version: String? = nil)
        -> RemoteModel
    {
        let model = RemoteModel(collectionURL: url, id: id, attributes: attributes, version: version, sync: sync,
                                bus: bus)
        model.validate = validate
        return model
    }

    // MARK: - Adding and removing

    /// Adds `model` at its sorted position (or at the end), unless it is already there.
    public func add(_ model: RemoteModel) {
        guard !models.contains(where: { $0 === model }) else { return }
        let index = comparator.map { before in models.firstIndex { before(model, $0) } ?? models.count } ?? models.count
        insert(model, at: index)
    }

    /// Removes `model`, if the collection has it.
    public func remove(_ model: RemoteModel) {
        guard let index = models.firstIndex(where: { $0 === model }) else { return }
        remove(at: index)
    }

    /// Replaces every model with models for `resources` (Backbone's `reset`): triggers
    /// `collection:reset` and announces a reload, no add or remove.
    public func reset(_ resources: [RemoteResource]) {
        for model in models where model.collection === self { model.collection = nil }
        let fresh = resources.map { resource -> RemoteModel in
            let model = makeModel()
            model.apply(resource)
            model.collection = self
            return model
        }
        models = comparator.map { fresh.sorted(by: $0) } ?? fresh
        trigger(CollectionEvents.reset, ["count": .number(Double(models.count))])
        changes.announce(.reload)
    }

    /// Sorts with the ``comparator``: triggers `collection:sort` and announces a reload when
    /// the order changed.
    public func sort() {
        guard let comparator else { return }
        let sorted = models.sorted(by: comparator)
        guard !sorted.elementsEqual(models, by: ===) else { return }
        models = sorted
        trigger(CollectionEvents.sort)
        changes.announce(.reload)
    }

    // MARK: - TableSource

    /// One untitled section.
    public var numberOfSections: Int { 1 }

    /// One row per model.
    public func numberOfRows(inSection section: Int) -> Int { models.count }

    /// The model at `path.row`, identified by its client id.
    public func item(at path: TableIndexPath) -> TableItem {
        let model = models[path.row]
        return TableItem(id: TableItemID(model.cid), value: model)
    }

    /// No title: the section has no header row.
    public func title(forSection section: Int) -> String? { nil }

    /// Where the model with client id `id` is.
    public func indexPath(of id: TableItemID) -> TableIndexPath? {
        guard let cid = id.base.base as? String, let row = models.firstIndex(where: { $0.cid == cid }) else {
            return nil
        }
        return TableIndexPath(row: row)
    }

    // MARK: - Single changes, announced

    func insert(_ model: RemoteModel, at index: Int) {
        model.collection = self
        models.insert(model, at: index)
        trigger(CollectionEvents.add, model: model, index: index)
        changes.announce(.insert(TableIndexPath(row: index)))
    }

    func remove(at index: Int) {
        let model = models.remove(at: index)
        if model.collection === self { model.collection = nil }
        trigger(CollectionEvents.remove, model: model, index: index)
        changes.announce(.delete(TableIndexPath(row: index), id: TableItemID(model.cid)))
    }

    func move(from source: Int, to destination: Int) {
        let model = models.remove(at: source)
        models.insert(model, at: destination)
        changes.announce(.move(from: TableIndexPath(row: source), to: TableIndexPath(row: destination)))
    }

    /// Called by a model after its attributes changed outside a merge.
    func modelDidChange(_ model: RemoteModel) {
        guard let index = models.firstIndex(where: { $0 === model }) else { return }
        changes.announce(.update(TableIndexPath(row: index)))
        guard let comparator else { return }
        let sorted = models.sorted(by: comparator)
        guard let destination = sorted.firstIndex(where: { $0 === model }), destination != index else { return }
        move(from: index, to: destination)
        trigger(CollectionEvents.sort)
    }

    func trigger(_ message: String, model: RemoteModel, index: Int) {
        trigger(message, ["id": model.id.map(JSONValue.string) ?? .null, "cid": .string(model.cid),
                          "index": .number(Double(index))])
    }

    func trigger(_ message: String, _ data: [String: JSONValue] = [:]) {
        guard let bus else { return }
        var payload = data
        payload["url"] = .string(url.absoluteString)
        bus.trigger(message, .object(payload), from: self)
    }
}
