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
        init(_ source: any ListRowSource) { self.source = source }
    }

    /// The C model (one reference owned here).
    public let pointer: GObjectPointer
    public let source: any ListRowSource

    public init(source: any ListRowSource) {
        self.source = source
        let count: TrellisListModelCountFunc = { data in
            guard let data else { return 0 }
            let box = Unmanaged<SourceBox>.fromOpaque(data).takeUnretainedValue()
            return MainActor.assumeIsolated { guint(clamping: box.source.rowCount) }
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
        let box = Unmanaged.passRetained(SourceBox(source)).toOpaque()
        pointer = GObjectPointer(trellis_list_model_new(count, item, releasePayload, box, releaseSource))
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

    /// The number of rows GTK sees.
    public var count: Int { Int(g_list_model_get_n_items(listModel)) }

    /// The payload of a row item given to a list item.
    static func row(of item: GObjectPointer) -> ListRow? {
        guard let payload = trellis_row_item_get_payload(item.as()) else { return nil }
        return Unmanaged<RowPayload>.fromOpaque(payload).takeUnretainedValue().row
    }
}
