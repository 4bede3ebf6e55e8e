import Foundation

/// One of the folders of `data/templates` that `trellis plugin new` and `trellis app new` copy:
/// a project named `Shelf` (id `shelf`) that builds and passes its test as it is. Copying renames
/// it — `Shelf` to the new type name, `shelf` to the new id, in file names and in the files — and
/// fills the `@KEY@` placeholders (where Trellis's SDK and sources are on this machine).
struct ProjectTemplate {
    /// The name every template is written with.
    static let sample = "Shelf"

    let folder: URL

    /// The template `name` (`plugin-swift`, `plugin-c`, `app`) of the data folder `data`.
    init(_ name: String, data: URL) {
        folder = data.appendingPathComponent("templates").appendingPathComponent(name)
    }

    /// Writes the project named `name` into `destination`, which must not exist or be an empty
    /// folder: nothing is overwritten. Returns the files written, relative to `destination`.
    @discardableResult
    func write(_ name: ProjectName, to destination: URL, placeholders: [String: String]) throws -> [String] {
        let files = FileManager.default
        var isFolder: ObjCBool = false
        if files.fileExists(atPath: destination.path, isDirectory: &isFolder) {
            guard isFolder.boolValue, (try? files.contentsOfDirectory(atPath: destination.path).isEmpty) == true else {
                throw GeneratorError.destinationTaken(destination.path)
            }
        }
        guard let enumerator = files.enumerator(at: folder, includingPropertiesForKeys: [.isDirectoryKey]) else {
            throw GeneratorError.templateMissing(folder.path)
        }
        let sources = enumerator.compactMap { $0 as? URL }.filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == false }
        guard !sources.isEmpty else { throw GeneratorError.templateMissing(folder.path) }
        var written: [String] = []
        for source in sources.sorted(by: { $0.path < $1.path }) {
            let relative = String(source.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count + 1))
            let target = destination.appendingPathComponent(rename(relative, name))
            try files.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            let text = try String(contentsOf: source, encoding: .utf8)
            try Data(fill(rename(text, name), placeholders).utf8).write(to: target, options: .withoutOverwriting)
            written.append(String(target.path.dropFirst(destination.path.count + 1)))
        }
        return written
    }

    /// `text` with the sample's names made `name`'s: `Shelf` → the type name, `shelf` → the id.
    func rename(_ text: String, _ name: ProjectName) -> String {
        text.replacingOccurrences(of: Self.sample, with: name.typeName)
            .replacingOccurrences(of: Self.sample.lowercased(), with: name.id)
    }

    /// `text` with each `@KEY@` replaced; a placeholder left unfilled is a bug of the template.
    private func fill(_ text: String, _ placeholders: [String: String]) throws -> String {
        var text = text
        for (key, value) in placeholders { text = text.replacingOccurrences(of: "@\(key)@", with: value) }
        if let range = text.range(of: #"@[A-Z_]+@"#, options: .regularExpression) {
            throw GeneratorError.unfilled(String(text[range]), template: folder.path)
        }
        return text
    }
}

/// Why a generator wrote nothing.
enum GeneratorError: Error, CustomStringConvertible {
    case destinationTaken(String)
    case templateMissing(String)
    case unfilled(String, template: String)
    case noSDK(searched: [String])
    case noSources

    var description: String {
        switch self {
        case .destinationTaken(let path):
            return "\(path) exists and is not an empty folder: choose another folder (nothing was written)"
        case .templateMissing(let path):
            return "the template \(path) is missing: this Trellis is installed incompletely"
        case .unfilled(let key, let template):
            return "the template \(template) has a placeholder \(key) the generator does not fill"
        case .noSDK(let searched):
            return "the Trellis plugin SDK was not found (looked in: \(searched.joined(separator: ", ")))"
        case .noSources:
            return "an app package builds against Trellis's sources, and this trellis was not built from a checkout of them: "
                + "clone Trellis and run its bash .ci/launch, then that checkout's trellis app new"
        }
    }
}
