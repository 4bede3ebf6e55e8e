import Foundation
import Testing

/// "Coming from the seeds" names only what exists: every type in its Trellis column is declared
/// in the sources, and every `Type.member` names a member declared there.
@Suite("Docs: Coming from the seeds")
struct SeedsMappingTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every Swift source of the package, as one text.
    static func sources() throws -> String {
        let root = repository.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        return try files.map { try String(contentsOf: $0, encoding: .utf8) }.joined(separator: "\n")
    }

    @Test("every Trellis name in the table is declared in the sources")
    func namesExist() throws {
        let article = try String(contentsOf: Self.repository.appendingPathComponent(
            "Sources/TrellisCore/TrellisCore.docc/ComingFromTheSeeds.md"), encoding: .utf8)
        let sources = try Self.sources()
        var types: Set<String> = []
        var members: Set<String> = []
        for match in sources.matches(of: /(class|struct|enum|protocol|actor|typealias|func|var|let|case) ([A-Za-z_][A-Za-z0-9_]*)/) {
            if ["func", "var", "let", "case"].contains(String(match.1)) { members.insert(String(match.2)) } else { types.insert(String(match.2)) }
        }
        var checked = 0
        for line in article.split(separator: "\n") where line.hasPrefix("| ") && !line.hasPrefix("| ---") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 2 else { continue }
            for code in cells[1].matches(of: /`([^`]+)`/).map({ String($0.1) }) {
                let parts = code.split(separator: ".").map(String.init)
                guard let type = parts.first, type.first?.isUppercase == true,
                      type.allSatisfy({ $0.isLetter || $0.isNumber }) else { continue }
                let typeDeclared = types.contains(type)
                #expect(typeDeclared, "\(type) (in \"\(code)\") is declared nowhere")
                if parts.count == 2 {
                    let member = parts[1]
                    let memberDeclared = members.contains(member)
                    #expect(memberDeclared, "\(code): no member \(member) is declared")
                }
                checked += 1
            }
        }
        #expect(checked > 40, "the table was read: \(checked) names")
    }
}
