import Foundation
import Logging
import TrellisCore

/// Where the favourites outlive the window: a small JSON file beside the store
/// (`notes.sqlite` → `notes.sqlite.favourites.json`), each favourite by catalog index and name,
/// so that a catalog whose lines moved still finds its genres.
///
/// A damaged file is never overwritten: it is moved aside (`….damaged`), the error is logged,
/// and the favourites start empty.
struct FavouritesFile {
    let url: URL
    private let logger = Logger(trellis: "trellis.demo")

    /// The favourites file of the store at `storeURL`.
    init(beside storeURL: URL) {
        url = storeURL.appendingPathExtension("favourites.json")
    }

    private struct Entry: Codable, Equatable {
        let index: Int
        let name: String
    }

    /// The saved favourites as indices of `catalog` (empty when there is no file yet).
    func load(catalog: [String]) -> Set<Int> {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        do {
            let entries = try JSONDecoder().decode([Entry].self, from: Data(contentsOf: url))
            return Set(entries.compactMap { entry in
                if catalog.indices.contains(entry.index), catalog[entry.index] == entry.name { return entry.index }
                return catalog.firstIndex(of: entry.name)
            })
        } catch {
            let aside = url.appendingPathExtension("damaged")
            try? FileManager.default.removeItem(at: aside)
            try? FileManager.default.moveItem(at: url, to: aside)
            logger.error("\(url.path): damaged favourites, moved to \(aside.lastPathComponent): \(error)")
            return []
        }
    }

    /// Writes `favourites` (indices of `catalog`) atomically; logs why it could not.
    func save(_ favourites: Set<Int>, catalog: [String]) {
        let entries = favourites.sorted().filter { catalog.indices.contains($0) }.map { Entry(index: $0, name: catalog[$0]) }
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(entries).write(to: url, options: .atomic)
        } catch {
            logger.error("\(url.path): cannot save the favourites: \(error)")
        }
    }
}
