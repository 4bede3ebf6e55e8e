import Foundation
import Logging
import TrellisCore

/// A small JSON file beside the store (`notes.sqlite` → `notes.sqlite.<name>.json`) for the
/// demo's state that is not in the model: the favourites and the editors' drafts.
///
/// A damaged file is never overwritten: it is moved aside (`….damaged`), the error is logged,
/// and the value starts empty. Writes are atomic.
struct SideFile<Value: Codable> {
    let url: URL
    private let logger = Logger(trellis: "trellis.demo")

    /// The file `<store file>.<name>.json`.
    init(beside storeURL: URL, name: String) {
        url = storeURL.appendingPathExtension("\(name).json")
    }

    /// The saved value; nil when there is no file yet, or it was damaged (and set aside).
    func load() -> Value? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            return try JSONDecoder().decode(Value.self, from: Data(contentsOf: url))
        } catch {
            let aside = url.appendingPathExtension("damaged")
            try? FileManager.default.removeItem(at: aside)
            try? FileManager.default.moveItem(at: url, to: aside)
            logger.error("\(url.path): damaged, moved to \(aside.lastPathComponent): \(error)")
            return nil
        }
    }

    /// Writes `value`; logs why it could not.
    func save(_ value: Value) {
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(value).write(to: url, options: .atomic)
        } catch {
            logger.error("\(url.path): cannot save: \(error)")
        }
    }
}
