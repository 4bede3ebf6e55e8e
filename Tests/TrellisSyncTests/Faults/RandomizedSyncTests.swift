import Foundation
import Testing
import TrellisCore
import TrellisStore
@testable import TrellisSync

extension AgainstRealServers {
    /// Several clients type, edit, delete and sync against one outside server, each through a
    /// chaos proxy that drops, delays, duplicates, resets and garbles a share of the requests,
    /// while the server is killed and restarted (json-server-py then loses its last second),
    /// restored from an older backup, and clients are restarted. Everything is drawn from one
    /// seed, printed with every failure; `TRELLIS_SYNC_SEED=<seed>` runs that seed alone.
    ///
    /// Each client edits only the notes it created, so that nothing typed may legitimately be
    /// replaced by another client's text; it also edits other clients' notes now and then
    /// (texts not asserted: they may meet conflicts). At the end, once the faults stop and
    /// every client has settled, the last text each client typed into each of its notes is on
    /// the server (in the note or its conflict copy) or waits in that client's Trash saying
    /// why; no title is twice on the server; every store holds what the server holds.
    @Suite("Randomized: clients, faults, crashes and restarts; nothing typed is lost")
    @MainActor
    final class RandomizedSyncTests {
        nonisolated static let clients = 3
        nonisolated static let rounds = 30
        nonisolated static let seeds: [UInt64] = ProcessInfo.processInfo.environment["TRELLIS_SYNC_SEED"].flatMap(UInt64.init).map { [$0] }
            ?? [0x5EED_0001, 0x5EED_0002]

        nonisolated static var cases: [(ServerKind, UInt64)] {
            ServerKind.allCases.flatMap { kind in seeds.map { (kind, $0) } }
        }

        /// One client: its store file, its proxy and its current session (remade on restart).
        @MainActor
        final class Client {
            let number: Int
            let storeURL: URL
            let proxy: ChaosProxy
            var local: SyncedStore
            /// Title → the last text this client typed into its own note.
            var typed: [String: String] = [:]
            /// Own notes another client edited since this one last typed: their last text may
            /// rightly have been written over.
            var contested: Set<String> = []
            var deleted: Set<String> = []
            var created = 0

            init(number: Int, storeURL: URL, proxy: ChaosProxy) throws {
                self.number = number
                self.storeURL = storeURL
                self.proxy = proxy
                local = try SyncedStore(serverURL: proxy.baseURL, url: storeURL, settings: RandomizedSyncTests.settings)
            }

            func restart(direct server: (any OutsideServer)? = nil) throws {
                try local.store.close()
                local = try SyncedStore(serverURL: server?.baseURL ?? proxy.baseURL, url: storeURL,
                                        settings: RandomizedSyncTests.settings)
            }
        }

        nonisolated static let settings = SyncFixtures.settings(timeout: 30, retries: 1)

        @Test("3 clients, 30 rounds each seed: every typed text ends on the server or in its writer's Trash, nothing twice",
              arguments: cases)
        func randomized(kind: ServerKind, seed: UInt64) async throws {
            var random = SeededGenerator(seed: seed)
            let context = "seed \(seed) (\(kind.rawValue)); rerun with TRELLIS_SYNC_SEED=\(seed)"
            try await kind.with { server in
                var clients: [Client] = []
                defer { for client in clients { client.proxy.stop() } }
                for number in 0..<Self.clients {
                    let proxy = try await ChaosProxy.start(backendPort: server.port, seed: seed &+ UInt64(number),
                                                           faultRate: 0.15)
                    clients.append(try Client(number: number, storeURL: try SyncFixtures.storeURL(), proxy: proxy))
                }
                var backup = try await server.snapshot()
                var trace: [String] = []
                for round in 0..<Self.rounds {
                    let client = clients[Int(random.next() % UInt64(clients.count))]
                    let action = try step(client, others: clients, random: &random)
                    let report = try await client.local.sync.syncNow()
                    var event = ""
                    switch random.next() % 20 {
                    case 0:
                        server.kill()
                        try await server.restart()
                        event = "; server killed and restarted"
                    case 1:
                        try await server.crash(restoring: backup)
                        event = "; server restored from the backup"
                    case 2:
                        backup = try await server.snapshot()
                        event = "; backup taken"
                    case 3:
                        try client.restart()
                        event = "; client restarted"
                    default:
                        break
                    }
                    trace.append("round \(round): client \(client.number) \(action); \(Self.summary(report))\(event)")
                }
                self.trace = trace
                // The faults stop: every client talks to the server directly until all agree.
                for client in clients { try client.restart(direct: server) }
                for _ in 0..<6 {
                    var quiet = true
                    for client in clients {
                        let report = try await client.local.sync.syncNow()
                        if report.suspectList != nil {
                            // As a person would, after a restore from an old backup: send them again.
                            try client.local.sync.sendMissingAgain()
                            quiet = false
                        }
                        if report.failure != nil || report.pending > 0 || report.pushed + report.inserted + report.updated
                            + report.trashed + report.rewritten + report.duplicates > 0 || !report.conflicts.isEmpty
                        {
                            quiet = false
                        }
                    }
                    if quiet { break }
                }
                try check(clients, server: try await server.notes(), context: context)
            }
        }

        /// What happened, round by round, printed with a failure.
        private var trace: [String] = []

        /// A pass in a few words.
        static func summary(_ report: SyncReport) -> String {
            var words = ["pushed \(report.pushed)", "in \(report.inserted)", "upd \(report.updated)"]
            for (name, count) in [("trashed", report.trashed), ("recreated", report.recreated), ("rewritten", report.rewritten),
                                  ("duplicates", report.duplicates), ("resolved", report.resolved), ("unlisted", report.unlisted),
                                  ("conflicts", report.conflicts.count), ("pending", report.pending)] where count > 0 {
                words.append("\(name) \(count)")
            }
            if let failure = report.failure { words.append("failed: \(failure)") }
            if let suspect = report.suspectList { words.append("suspect \(suspect.missing)/\(suspect.known)") }
            return words.joined(separator: ", ")
        }

        /// One random step of `client`: a new note, an edit of its own, an edit of another
        /// client's note, or a deletion of its own. Returns what it did.
        private func step(_ client: Client, others: [Client], random: inout SeededGenerator) throws -> String {
            let notes = try client.local.notes().compactMap { $0["title"].stringValue }
            let own = notes.filter { client.typed[$0] != nil && !$0.contains("(conflict copy)") }
            let word = "w\(random.next() % 100_000)"
            switch random.next() % 10 {
            case 0...3 where true:
                client.created += 1
                let title = "c\(client.number)-n\(client.created)"
                try client.local.write([title], body: word)
                client.typed[title] = word
                return "writes \(title) = \(word)"
            case 4...6 where !own.isEmpty:
                let title = own[Int(random.next() % UInt64(own.count))]
                try client.local.edit(title, body: word)
                client.typed[title] = word
                client.contested.remove(title)
                return "edits \(title) = \(word)"
            case 7 where !notes.isEmpty:
                let title = notes[Int(random.next() % UInt64(notes.count))]
                if client.typed[title] == nil, !title.contains("(conflict copy)") {
                    try client.local.edit(title, body: "from c\(client.number): \(word)")
                    for owner in others where owner.typed[title] != nil { owner.contested.insert(title) }
                    return "edits another's \(title)"
                }
                return "nothing"
            case 8 where !own.isEmpty:
                let title = own[Int(random.next() % UInt64(own.count))]
                let note = try #require(try client.local.editableNote(titled: title))
                try client.local.context.delete(note)
                try client.local.sync.save(client.local.context)
                client.typed[title] = nil
                client.deleted.insert(title)
                return "deletes \(title)"
            default:
                client.created += 1
                let title = "c\(client.number)-n\(client.created)"
                try client.local.write([title], body: word)
                client.typed[title] = word
                return "writes \(title) = \(word)"
            }
        }

        private func check(_ clients: [Client], server resources: [RemoteResource], context: String) throws {
            let context = context + "\n" + trace.joined(separator: "\n")
            let onServer = resources.map { ($0.attributes["title"]?.stringValue ?? "", $0.attributes["body"]?.stringValue ?? "") }
            let titles = onServer.map(\.0)
            let twice = Dictionary(grouping: titles, by: { $0 }).filter { $0.value.count > 1 && !$0.key.contains("(conflict copy)") }
            let doubled = resources.filter { twice[$0.attributes["title"]?.stringValue ?? ""] != nil }.map {
                "\($0.id ?? "-") \($0.attributes["clientId"]?.stringValue ?? "-") \($0.attributes["title"]?.stringValue ?? "") | \($0.attributes["body"]?.stringValue ?? "")"
            }
            #expect(twice.isEmpty, "\(context): titles twice on the server: \(doubled.sorted())")
            for client in clients {
                let trash = try client.local.sync.trashedObjects()
                let localLines = try client.local.lines()
                for (title, text) in client.typed.sorted(by: { $0.key < $1.key }) where !client.contested.contains(title) {
                    let kept = onServer.contains { ($0.0 == title || $0.0.hasPrefix(title + " (conflict copy)")) && $0.1 == text }
                    let trashed = trash.contains { ($0["title"]?.stringValue ?? "").hasPrefix(title) && $0["body"]?.stringValue == text }
                    #expect(kept || trashed, """
                        \(context): client \(client.number)'s text \(text) of \(title) is lost; the server has \
                        \(onServer.filter { $0.0.hasPrefix(title) }), the client \(localLines.filter { $0.hasPrefix(title) }), \
                        its Trash \(trash.map { "\($0["title"]?.stringValue ?? "") | \($0["body"]?.stringValue ?? "")" })
                        """)
                }
                let serverLines = Convergence.lines(resources)
                #expect(localLines == serverLines, """
                    \(context): client \(client.number) differs: only here \(Set(localLines).subtracting(serverLines).sorted()), \
                    only on the server \(Set(serverLines).subtracting(localLines).sorted())
                    """)
                #expect(try client.local.sync.pendingCount() == 0, "\(context): client \(client.number) still has changes queued")
            }
        }
    }
}

/// SplitMix64: a small generator whose sequence a seed fixes (the standard library's is not
/// seedable), so a failing run can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
