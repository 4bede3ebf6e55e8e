extension TableContainer {
    /// Runs `body`, in which the source announces changes one at a time, and tells the
    /// container's observers once afterwards, with adjacent changes merged: 1,000 rows inserted
    /// one by one reach GTK as one `items-changed (position, 0, 1000)`, a block of updated rows
    /// as one `(position, n, n)`.
    ///
    /// ```swift
    /// try container.coalescingChanges {
    ///     for row in 0..<1000 { try rows.insert("Row \(row)", at: row) }
    /// }
    /// ```
    ///
    /// Nothing reads the model between the changes (the observers are told at the end), so the
    /// front end sees the model as it is after the last one.
    public func coalescingChanges<Failure: Error>(_ body: () throws(Failure) -> Void) throws(Failure) {
        guard collectedChanges == nil else { return try body() }
        collectedChanges = []
        defer {
            let changes = collectedChanges ?? []
            collectedChanges = nil
            emit(changes)
        }
        try body()
    }
}

extension [FlatChange] {
    /// Appends `next`, merged into the last change when the two touch, so that applying the
    /// list gives the same model.
    mutating func appendMerging(_ next: FlatChange) {
        guard let last = self.last else { return append(next) }
        if next.position == last.position + last.added {
            // Right after the rows `last` added: one splice over both.
            self[count - 1] = FlatChange(position: last.position, removed: last.removed + next.removed, added: last.added + next.added)
        } else if next.position + next.removed == last.position {
            // Right before the rows `last` changed (rows deleted or inserted backwards).
            self[count - 1] = FlatChange(position: next.position, removed: next.removed + last.removed, added: next.added + last.added)
        } else if next.position >= last.position, next.position + next.removed <= last.position + last.added {
            // Within the rows `last` added: still one splice of the original rows.
            self[count - 1] = FlatChange(position: last.position, removed: last.removed, added: last.added - next.removed + next.added)
        } else {
            append(next)
        }
    }
}
