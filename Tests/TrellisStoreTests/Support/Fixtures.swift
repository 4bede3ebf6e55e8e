import Foundation
import TrellisStore
import TrellisTesting

/// Shared test material: the demo model file, temporary directories, small models.
enum Fixtures {
    /// The repository root, found from this file's path.
    static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `data/model.json`: the demo application's model.
    static let demoModelURL = repositoryRoot.appendingPathComponent("data/model.json")

    static func demoModel() throws -> ManagedObjectModel {
        try ManagedObjectModel(contentsOf: demoModelURL)
    }

    /// A fresh, empty directory, removed with the test process's others (``TestFolder``).
    static func temporaryDirectory() throws -> URL {
        try TestFolder.make("store")
    }

    /// A store path in a fresh temporary directory.
    static func storeURL() throws -> URL {
        try temporaryDirectory().appendingPathComponent("test.sqlite")
    }

    /// Parses a model from JSON text, naming it `name` in errors.
    static func model(_ json: String, name: String = "test-model.json") throws -> ManagedObjectModel {
        try ManagedObjectModel(jsonString: json, source: name)
    }
}
