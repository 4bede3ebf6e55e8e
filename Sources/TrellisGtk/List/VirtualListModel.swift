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
public final class VirtualListModel {
    /// What a `TrellisRowItem` carries: the row's content at the time GTK asked for it.
    final class RowPayload {
        let row: ListRow
        init(_ row: ListRow) { self.row = row }
    }

    /// The model's user data: the Swift source, strongly held until the C model is finalized.
    private final class SourceBox {
        let source: any ListRowSource
        /// While a replacement of every row is told as a removal: the count GTK sees is 0.
        var isEmptied = false
        init(_ source: any ListRowSource) { self.source = source }
    }

    /// The C model (one reference owned here).
    public let pointer: GObjectPointer
    public let source: any ListRowSource
    private let box: SourceBox

    public init(source: any ListRowSource) {
        self.source = source
        let count: TrellisListModelCountFunc = { data in
            guard let data else { return 0 }
            let box = Unmanaged<SourceBox>.fromOpaque(data).takeUnretainedValue()
            return MainActor.assumeIsolated { box.isEmptied ? 0 : guint(clamping: box.source.rowCount) }
        }
        let item: TrellisListModelItemFunc = { position, data in
            guard let data else { return nil }
            let box = Unmanaged<SourceBox>.fromOpaque(data).takeUnretainedValue()
            let row = MainActor.assumeIsolated { box.source.listRow(at: Int(position)) }
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
    public var listModel: OpaquePointer { trellis_list_model_as_list_model(pointer.as()) }

    /// Announces a change of the source to GTK: `removed` rows at `position` were replaced by
    /// `added` rows. Call after the source changed, never from inside `listRow(at:)`.
    public func itemsChanged(position: Int, removed: Int, added: Int) {
        trellis_list_model_items_changed(pointer.as(), guint(position), guint(removed), guint(added))
    }

    /// Announces that every one of the `removed` rows GTK shows was replaced by `added` rows
    /// (a sort), as a removal of all, then an insertion: GTK 4.8 reads every added item of a
    /// change that also removes rows with widgets (to find widgets to reuse), which for a
    /// million fetched rows is a million rows read. During the removal GTK counts 0 rows.
    public func allItemsReplaced(removed: Int, added: Int) {
        box.isEmptied = true
        itemsChanged(position: 0, removed: removed, added: 0)
        box.isEmptied = false
        itemsChanged(position: 0, removed: 0, added: added)
    }

    /// The number of rows GTK sees.
    public var count: Int { Int(g_list_model_get_n_items(listModel)) }

    /// The payload of a row item given to a list item.
    static func row(of item: GObjectPointer) -> ListRow? {
        guard let payload = trellis_row_item_get_payload(item.as()) else { return nil }
        return Unmanaged<RowPayload>.fromOpaque(payload).takeUnretainedValue().row
    }
}
