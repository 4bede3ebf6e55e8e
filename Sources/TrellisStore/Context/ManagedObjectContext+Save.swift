extension ManagedObjectContext {
    /// Validates every inserted and updated object, then writes all changes in one
    /// transaction: all of them or none.
    ///
    /// - Throws: ``SaveValidationError`` listing every object and key at fault (nothing is
    ///   written), or ``StoreError`` for an SQLite failure (the transaction is rolled back).
    ///   Either way the context keeps its changes, to be fixed and saved again.
    ///
    /// Undo history is kept across saves: undoing a saved change makes it pending again.
    public func save() throws {
        let objects = pending.filter(\.hasChanges)
        guard !objects.isEmpty else {
            clearPending()
            return
        }
        var issues: [ValidationIssue] = []
        var rulesByEntity: [String: [ValidationRule]] = [:]
        var batch = SaveBatch()
        for object in objects {
            let entity = object.entity
            if object.state != .deleted {
                let rules: [ValidationRule]
                if let known = rulesByEntity[entity.name] {
                    rules = known
                } else {
                    rules = store.validationRules.rules(for: entity.name)
                    rulesByEntity[entity.name] = rules
                }
                issues += store.validate(object, rules: rules)
            }
            switch object.state {
            case .inserted:
                batch.inserts.append(SaveBatch.Insert(entity: entity, id: object.objectID.uuid, values: object.values))
            case .persistent:
                let committed = object.committed ?? object.values
                let columns = entity.columns.indices.filter { object.values[$0] != committed[$0] }
                batch.updates.append(SaveBatch.Update(entity: entity, id: object.objectID.uuid, columns: columns,
                                                      values: object.values))
            case .deleted:
                batch.deletes.append(SaveBatch.Delete(entity: entity, id: object.objectID.uuid))
            case .detached:
                break
            }
        }
        guard issues.isEmpty else { throw SaveValidationError(issues: issues) }

        let changes = try store.commit(batch)
        for object in objects {
            switch object.state {
            case .inserted, .persistent:
                object.state = .persistent
                object.committed = object.values
            case .deleted:
                detach(object)
            case .detached:
                break
            }
        }
        applyDeleteRules(changes, saved: objects)
        clearPending()
        logger.debug("context saved", metadata: ["objects": "\(objects.count)"])
    }

    /// Discards every unsaved change and the undo history.
    public func rollback() {
        for object in pending {
            switch object.state {
            case .inserted: object.state = .detached
            case .deleted: object.state = .persistent
            case .persistent, .detached: break
            }
            if let committed = object.committed { object.values = committed }
            object.unknownKeys.removeAll()
        }
        clearPending()
        undoStack.removeAll()
    }

    private func detach(_ object: ManagedObject) {
        object.state = .detached
        object.committed = nil
        forget(object.objectID)
    }

    /// Brings the context's instances in line with what SQLite's delete rules did:
    /// cascaded deletions detach their objects, nullified relationships become nil.
    private func applyDeleteRules(_ changes: StoreChanges, saved: [ManagedObject]) {
        // Delete rules act only when something was deleted.
        guard !changes.deleted.isEmpty else { return }
        let savedIDs = Set(saved.map(\.objectID))
        let deletedIDs = Set(changes.deleted.values.joined())
        for id in deletedIDs where !savedIDs.contains(id) {
            if let object = registeredObject(id) { detach(object) }
        }
        let deletedUUIDs = Set(deletedIDs.map(\.uuid))
        for id in changes.updated.values.joined() where !savedIDs.contains(id) {
            guard let object = registeredObject(id) else { continue }
            for (index, column) in object.entity.columns.enumerated() where column.relationship?.deleteRule == .nullify {
                guard let target = object.committed?[index].uuidValue, deletedUUIDs.contains(target) else { continue }
                object.committed?[index] = .null
                if object.values[index] == .uuid(target) { object.values[index] = .null }
            }
        }
    }
}
