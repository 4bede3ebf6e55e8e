import CGtk
import CTrellisGtk

/// Owns a `TrellisListModel` (C, `GListModel`) whose size and items come from a
/// ``ListRowSource`` on demand.
///
/// Reference ownership: the model is created with one reference, which this object keeps
/// and drops in `deinit`; widgets that display it take their own. The C model retains the
/// source box (its user data) and releases it when it is finalized; each `TrellisRowItem`
/// retains its `RowPayload` and releases it when finalized.
@MainActor
final class VirtualListModel {
    /// What a `TrellisRowItem` carries: the row's content at the time GTK asked for it.
    final class RowPayload {
        let row: ListRow
        init(_ row: ListRow) { self.row = row }
    }

    /// The model's user data: the Swift source, strongly held until the C model is finalized.
    private final class SourceBox {
        let source: any ListRowSource
        /// While a replacement is told as a removal, then an insertion: the rows added at
        /// `hiddenStart` that GTK has not been told of yet (it sees the model without them).
        var hiddenRows = 0
        var hiddenStart = 0
        init(_ source: any ListRowSource) { self.source = source }
    }

    /// The C model (one reference owned here).
    let pointer: GObjectPointer
    let source: any ListRowSource
    private let box: SourceBox

    init(source: any ListRowSource) {
        self.source = source
        let count: TrellisListModelCountFunc = { data in
            guard let data else { return 0 }
            let box = Unmanaged<SourceBox>.fromOpaque(data).takeUnretainedValue()
            return MainActor.assumeIsolated { guint(clamping: max(0, box.source.rowCount - box.hiddenRows)) }
        }
        let item: TrellisListModelItemFunc = { position, data in
            guard let data else { return nil }
            let box = Unmanaged<SourceBox>.fromOpaque(data).takeUnretainedValue()
            let row = MainActor.assumeIsolated {
                // Past the hidden rows, GTK's position is theirs plus the hidden ones.
                let index = Int(position) >= box.hiddenStart ? Int(position) + box.hiddenRows : Int(position)
                return box.source.listRow(at: index)
            }
            return Unmanaged.passRetained(RowPayload(row)).toOpaque()
        }
        let releasePayload: GDestroyNotify = { data in
            guard let data else { return }
            Unmanaged<RowPayload>.fromOpaque(data).release()
        }
        let releaseSource: GDestroyNotify = { data in
            guard let data else { return }
            Unmanaged<SourceBox>.fromOpaque(data).release()
        }
        box = SourceBox(source)
        let data = Unmanaged.passRetained(box).toOpaque()
        pointer = GObjectPointer(trellis_list_model_new(count, item, releasePayload, data, releaseSource))
    }

    isolated deinit {
        g_object_unref(pointer)
    }

    /// The model as a `GListModel *`.
    var listModel: OpaquePointer { trellis_list_model_as_list_model(pointer.as()) }

    /// Announces a change of the source to GTK: `removed` rows at `position` were replaced by
    /// `added` rows. Call after the source changed, never from inside `listRow(at:)`.
    ///
    /// A change that both removes and adds more than ``splitThreshold`` rows (a search, a sort)
    /// is told as a removal, then an insertion: GTK 4.8 reads every added item of a change that
    /// also removes rows with widgets (to find widgets to reuse), which for a search of a
    /// million rows is hundreds of thousands of rows read per keystroke (0.6 s measured with
    /// `trellis-bench typing`). During the removal GTK sees the model without the added rows.
    func itemsChanged(position: Int, removed: Int, added: Int) {
        itemsChanged(position: position, removed: removed, added: added, reusing: [])
    }

    /// ``itemsChanged(position:removed:added:)``, keeping the row widgets GTK has at the first
    /// positions of the change: `items` are the row items GTK holds at `position`,
    /// `position + 1`, … (as many as have widgets, in order). Those rows are told as replaced
    /// in place, with the same item objects now carrying the new rows
    /// (`trellis_list_model_items_changed_reusing`): GTK 4.8 keeps a widget only for the same
    /// item, and without this a search destroys and builds again the ~200 widgets a long list
    /// keeps around what is shown. The rest of the change is told first, as any change.
    func itemsChanged(position: Int, removed: Int, added: Int, reusing items: [GObjectPointer]) {
        let reused = min(items.count, removed, added)
        guard reused > 0 else { return announce(position: position, removed: removed, added: added) }
        announce(position: position + reused, removed: removed - reused, added: added - reused)
        var rowItems = items.prefix(reused).map { OpaquePointer($0) as OpaquePointer? }
        rowItems.withUnsafeMutableBufferPointer { buffer in
            // Safe: each element is a live TrellisRowItem (GTK's list items hold them, and the C
            // side takes a reference for the call); the buffer outlives the call.
            trellis_list_model_items_changed_reusing(pointer.as(), guint(position), buffer.baseAddress, guint(reused))
        }
    }

    private func announce(position: Int, removed: Int, added: Int) {
        guard removed > 0 || added > 0 else { return }
        // Rows updated in place (as many added as removed) stay one change up to a sort's size:
        // split, their rows would be read at shifted positions while GTK counts without them,
        // which for rows loaded on demand (a plugin's table) asks for rows nobody shows.
        let isUpdate = removed == added && removed <= Self.updateSplitThreshold
        guard removed > 0, added > 0, removed + added > Self.splitThreshold, !isUpdate else {
            return trellis_list_model_items_changed(pointer.as(), guint(position), guint(removed), guint(added))
        }
        (box.hiddenStart, box.hiddenRows) = (position, added)
        trellis_list_model_items_changed(pointer.as(), guint(position), guint(removed), 0)
        (box.hiddenStart, box.hiddenRows) = (0, 0)
        trellis_list_model_items_changed(pointer.as(), guint(position), 0, guint(added))
    }

    /// Above this many rows removed and added, a change is told in two (see ``itemsChanged(position:removed:added:)``);
    /// below, in one, so that GTK keeps the widgets of rows that were only updated.
    static let splitThreshold = 64
    /// Rows updated in place are told in one change up to this many (see ``itemsChanged(position:removed:added:)``).
    static let updateSplitThreshold = 10_000

    /// The number of rows GTK sees.
    var count: Int { Int(g_list_model_get_n_items(listModel)) }

    /// The payload of a row item given to a list item.
    static func row(of item: GObjectPointer) -> ListRow? {
        guard let payload = trellis_row_item_get_payload(item.as()) else { return nil }
        return Unmanaged<RowPayload>.fromOpaque(payload).takeUnretainedValue().row
    }
}
