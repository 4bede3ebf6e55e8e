import Foundation
import TrellisCore
import TrellisStore

/// How many notes were written each day, live: the model of the `/notes-per-day` chart. It
/// follows the store through fetched results (as the notes list does), so a note saved
/// anywhere shows at once. Headless, each day is a line: `2026-11-20 ▇▇▇ 3`.
///
/// ```swift
/// let perDay = try NotesPerDay(context: store.newContext())
/// perDay.onChange = { print(perDay.textLines) }
/// ```
@MainActor
public final class NotesPerDay: CustomContentModel {
    /// One day with notes: its date (`yyyy-MM-dd`, local time) and how many were written.
    public struct Day: Sendable, Equatable {
        /// The day, `yyyy-MM-dd` in local time.
        public let date: String
        /// How many notes were written that day.
        public let count: Int
    }

    /// The days with at least one note, oldest first.
    public private(set) var days: [Day] = []
    /// Called after ``days`` changed.
    public var onChange: (() -> Void)?
    private let results: FetchedResultsController
    private static let dayFormat: DateFormatter = {
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.dateFormat = "yyyy-MM-dd"
        return format
    }()

    /// Counts the notes of `context`'s store and follows its saves.
    public init(context: ManagedObjectContext) throws {
        results = try FetchedResultsController(
            request: FetchRequest(entityName: "Note", sortKeys: [SortKey("created")]), context: context)
        days = try Self.count(results)
        results.onChange = { [weak self] _ in
            guard let self, let days = try? Self.count(self.results), days != self.days else { return }
            self.days = days
            self.onChange?()
        }
    }

    /// The notes per day of `results` (sorted by creation), oldest day first.
    private static func count(_ results: FetchedResultsController) throws -> [Day] {
        var days: [Day] = []
        for offset in 0..<results.count {
            let created = try results.object(atOffset: offset)["created"].dateValue ?? Date(timeIntervalSince1970: 0)
            let date = dayFormat.string(from: created)
            if days.last?.date == date {
                days[days.count - 1] = Day(date: date, count: days[days.count - 1].count + 1)
            } else {
                days.append(Day(date: date, count: 1))
            }
        }
        return days
    }

    /// The most notes written on one day (0 with no notes).
    public var largestCount: Int { days.map(\.count).max() ?? 0 }

    /// Each day in words, for screen readers: "20 November 2026: 3", one day a line; the
    /// sentence of ``textLines`` when there are no notes.
    public var accessibleDescription: String {
        guard !days.isEmpty else { return textLines.joined() }
        let spoken = DateFormatter()
        spoken.dateStyle = .long
        spoken.timeStyle = .none
        return days.map { day in
            let date = Self.dayFormat.date(from: day.date).map(spoken.string(from:)) ?? day.date
            return "\(date): \(day.count)"
        }.joined(separator: "\n")
    }

    /// One line per day, a bar of up to 20 blocks scaled to the busiest day, then the count;
    /// a sentence when there are no notes.
    public var textLines: [String] {
        guard !days.isEmpty else { return [tr("No notes yet.")] }
        let largest = largestCount
        return days.map { day in
            let blocks = max(1, (day.count * 20 + largest - 1) / largest)
            return "\(day.date) \(String(repeating: "▇", count: blocks)) \(day.count)"
        }
    }
}
