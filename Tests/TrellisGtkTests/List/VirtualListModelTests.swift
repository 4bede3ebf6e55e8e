import CGtk
import CTrellisGtk
@testable import TrellisGtk
import XCTest

/// The C `TrellisListModel` asks its Swift source on demand and owns its references correctly.
/// XCTest on Linux cannot call `@MainActor` test methods; it runs them on the main thread, so
/// each body asserts that and enters the main actor with `MainActor.assumeIsolated`.
final class VirtualListModelTests: XCTestCase {
    @MainActor final class CountingRows: ListRowSource {
        var items: [String]
        var requested: [Int] = []
        init(_ items: [String]) { self.items = items }
        var rowCount: Int { items.count }
        func listRow(at position: Int) -> ListRow {
            requested.append(position)
            return .item(columns: [items[position]], checkbox: nil, selected: false)
        }
    }

    func testCountAndItemsComeFromTheSourceOnDemand() {
        MainActor.assumeIsolated {
            let rows = CountingRows(["Фэнтези", "Проза", "Поэзия"])
            let model = VirtualListModel(source: rows)
            XCTAssertEqual(model.count, 3)
            XCTAssertEqual(rows.requested, [], "no row may be read before GTK asks for it")
            let item = g_list_model_get_item(model.listModel, 1)!
            XCTAssertEqual(rows.requested, [1])
            XCTAssertEqual(trellis_row_item_get_position(OpaquePointer(item)), 1)
            g_object_unref(item)
            XCTAssertNil(g_list_model_get_item(model.listModel, 3), "past the end is NULL, as GListModel requires")
        }
    }

    func testOneMillionSyntheticRowsAreNotMaterialised() {
        MainActor.assumeIsolated {
            let model = VirtualListModel(source: StaticRows(synthetic: 1_000_000))
            XCTAssertEqual(model.count, 1_000_000)
            let before = trellis_row_item_live_count()
            let item = g_list_model_get_item(model.listModel, 999_999)!
            XCTAssertEqual(trellis_row_item_live_count(), before + 1)
            g_object_unref(item)
            XCTAssertEqual(trellis_row_item_live_count(), before, "a row item is freed with its last reference")
        }
    }

    func testItemsChangedReachesGListModelListeners() {
        MainActor.assumeIsolated {
            let rows = CountingRows(["a", "b"])
            let model = VirtualListModel(source: rows)
            let recorder = ChangeRecorder()
            let handler = recorder.connect(to: model.pointer)
            rows.items.insert("new", at: 1)
            model.itemsChanged(position: 1, removed: 0, added: 1)
            XCTAssertEqual(recorder.changes.map { [$0.0, $0.1, $0.2] }, [[1, 0, 1]])
            XCTAssertEqual(model.count, 3)
            g_signal_handler_disconnect(model.pointer.assumingMemoryBound(to: GObject.self), handler)
        }
    }

    func testTheModelReleasesItsSourceWhenFinalized() {
        MainActor.assumeIsolated {
            weak var weakRows: CountingRows?
            do {
                let rows = CountingRows(["x"])
                weakRows = rows
                let model = VirtualListModel(source: rows)
                XCTAssertEqual(model.count, 1)
            }
            XCTAssertNil(weakRows, "the C model's user data (the source) must be released on finalize")
        }
    }
}

/// Records `items-changed` emissions through a plain C handler.
final class ChangeRecorder {
    var changes: [(UInt32, UInt32, UInt32)] = []

    func connect(to model: UnsafeMutableRawPointer) -> gulong {
        let thunk: @convention(c) (gpointer?, guint, guint, guint, gpointer?) -> Void = { _, position, removed, added, data in
            Unmanaged<ChangeRecorder>.fromOpaque(data!).takeUnretainedValue().changes.append((position, removed, added))
        }
        return g_signal_connect_data(model.assumingMemoryBound(to: GObject.self), "items-changed",
                                     unsafeBitCast(thunk, to: GCallback.self),
                                     Unmanaged.passUnretained(self).toOpaque(), nil, GConnectFlags(0))
    }
}
