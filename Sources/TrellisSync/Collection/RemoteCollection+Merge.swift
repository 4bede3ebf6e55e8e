import Foundation
import TrellisCore

/// The smart merge and the collection's requests.
extension RemoteCollection {
    /// Merges the server's list into the collection by id (Backbone's `set`): models
    /// whose id is listed are kept and take the listed attributes, unlisted ones are
    /// removed, new ids become new models; the order becomes the listed order (or the
    /// ``comparator``'s). Models without an id (not saved yet) are kept at the end.
    ///
    /// The table changes are announced step by step: deletions (from the last), moves of
    /// kept models, insertions (from the first), then updates of changed models. The bus
    /// gets `collection:remove` and `collection:add` per model, `collection:sort` if kept
    /// models moved, and one `collection:update` listing the ids.
    @discardableResult
    public func set(_ resources: [RemoteResource]) -> CollectionChanges {
        var result = CollectionChanges()
        var existing: [String: RemoteModel] = [:]
        for model in models { if let id = model.id { existing[id] = model } }

        var target: [RemoteModel] = []
        var seen = Set<String>()
        for resource in resources {
            // A listed id without an id member, or listed twice, is skipped.
            guard let id = resource.id, seen.insert(id).inserted else { continue }
            let model = existing[id] ?? makeModel()
            model.isMerging = true
            let changed = model.apply(resource)
            model.isMerging = false
            if existing[id] == nil {
                result.added.append(model)
            } else if changed {
                result.changed.append(model)
            }
            target.append(model)
        }
        target += models.filter { $0.isNew }
        if let comparator { target.sort(by: comparator) }

        let kept = Set(target.map(ObjectIdentifier.init))
        for index in models.indices.reversed() where !kept.contains(ObjectIdentifier(models[index])) {
            result.removed.insert(models[index], at: 0)
            remove(at: index)
        }
        let added = Set(result.added.map(ObjectIdentifier.init))
        let keptInOrder = target.filter { !added.contains(ObjectIdentifier($0)) }
        for (index, model) in keptInOrder.enumerated() where models[index] !== model {
            guard let source = models.firstIndex(where: { $0 === model }) else { continue }
            move(from: source, to: index)
            result.reordered = true
        }
        for (index, model) in target.enumerated() where added.contains(ObjectIdentifier(model)) {
            insert(model, at: index)
        }
        if !result.changed.isEmpty {
            let rows = Dictionary(uniqueKeysWithValues: models.enumerated().map { (ObjectIdentifier($1), $0) })
            for model in result.changed {
                guard let row = rows[ObjectIdentifier(model)] else { continue }
                changes.announce(.update(TableIndexPath(row: row)))
            }
        }
        if result.reordered { trigger(CollectionEvents.sort) }
        if !result.isEmpty {
            let ids = { (models: [RemoteModel]) in JSONValue.array(models.map { .string($0.id ?? $0.cid) }) }
            trigger(CollectionEvents.update, ["added": ids(result.added), "removed": ids(result.removed),
                                              "changed": ids(result.changed)])
        }
        return result
    }

    /// Fetches the collection (GET on its URL, expecting a JSON array of resource objects)
    /// and merges it with ``set(_:)``. Triggers `collection:request`, then `collection:sync`
    /// or `collection:error`.
    @discardableResult
    public func fetch() async throws(ModelError) -> CollectionChanges {
        trigger(CollectionEvents.request, ["method": "GET"])
        let response: SyncResponse
        do {
            response = try await sync.send(SyncRequest(.get, url))
        } catch {
            announceFailure(error)
            throw .sync(error)
        }
        guard let items = response.body.arrayValue else {
            let error = SyncError.unexpectedBody(method: .get, url: url, expected: "an array of resources",
                                                 found: response.body)
            announceFailure(error)
            throw .sync(error)
        }
        var resources: [RemoteResource] = []
        for item in items {
            guard let resource = RemoteResource(json: item), resource.id != nil else {
                let error = SyncError.unexpectedBody(method: .get, url: url, expected: "resource objects with an id",
                                                     found: item)
                announceFailure(error)
                throw .sync(error)
            }
            resources.append(resource)
        }
        let changes = set(resources)
        trigger(CollectionEvents.sync, ["status": .number(Double(response.status))])
        return changes
    }

    /// Creates a model on the server (POST to the collection) and adds it once the server
    /// has accepted it, with the id and version it gave.
    ///
    /// - Throws: ``ModelError/invalid(url:reason:)`` when the validation hook rejects the
    ///   attributes (nothing is sent), ``ModelError/sync(_:)`` when the request fails; the
    ///   collection is unchanged either way.
    @discardableResult
    public func create(_ attributes: [String: JSONValue]) async throws(ModelError) -> RemoteModel {
        let model = makeModel(attributes: attributes)
        try await model.save()
        add(model)
        return model
    }

    private func announceFailure(_ error: SyncError) {
        var data: [String: JSONValue] = ["method": .string(error.method.rawValue), "error": .string(error.description)]
        if let status = error.status { data["status"] = .number(Double(status)) }
        trigger(CollectionEvents.error, data)
    }
}
