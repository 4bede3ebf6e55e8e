import Foundation
import TrellisCore

/// The demo's state that outlives pages and is not in the store: the genre catalog and the favourites.
@MainActor
public final class DemoModel {
    /// The catalog's genre names in file order, duplicates kept (a genre's id is its line index).
    public let catalog: [String]
    /// When set (`trellis --rows N`), the catalog page shows this many synthetic rows instead.
    public let syntheticRows: Int?
    /// Favourite genres, by catalog index; kept across runs beside the store.
    public private(set) var favourites: Set<Int> = []
    private let bus: EventBus
    private let file: SideFile<[FavouriteEntry]>?

    /// The model of `catalog`; `storeURL`, when given, is the store the favourites are kept
    /// beside (`<store>.favourites.json`, each by index and name, so that a catalog whose
    /// lines moved still finds its genres), read now and written on every change.
    public init(catalog: [String], syntheticRows: Int? = nil, bus: EventBus, storeURL: URL? = nil) {
        self.catalog = catalog
        self.syntheticRows = syntheticRows
        self.bus = bus
        self.file = storeURL.map { SideFile(beside: $0, name: "favourites") }
        favourites = Set((file?.load() ?? []).compactMap { entry in
            if catalog.indices.contains(entry.index), catalog[entry.index] == entry.name { return entry.index }
            return catalog.firstIndex(of: entry.name)
        })
    }

    /// The message ``setFavourite(_:_:)`` triggers: `{"index", "favourite"}`.
    public static let favouritesChanged = "favourites:changed"

    /// Marks genre `index` as a favourite or not; triggers ``favouritesChanged``.
    public func setFavourite(_ index: Int, _ favourite: Bool) {
        guard catalog.indices.contains(index) else { return }
        let changed = favourite ? favourites.insert(index).inserted : favourites.remove(index) != nil
        guard changed else { return }
        file?.save(favourites.sorted().map { FavouriteEntry(index: $0, name: catalog[$0]) })
        bus.trigger(Self.favouritesChanged, ["index": .number(Double(index)), "favourite": .bool(favourite)])
    }

    /// The positions (from 1) at which the name of genre `index` occurs in the catalog, in order.
    public func positions(of index: Int) -> [Int] {
        catalog.indices.filter { catalog[$0] == catalog[index] }.map { $0 + 1 }
    }
}

/// A favourite genre as its file keeps it.
struct FavouriteEntry: Codable {
    let index: Int
    let name: String
}
