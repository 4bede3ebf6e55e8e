// trellis-store-crasher: the child process of the store's crash-safety test.
//
//     trellis-store-crasher STORE MODEL FIRST
//
// Opens the store at STORE with the model file MODEL and saves forever: save number n
// (from FIRST on) inserts 1 + n % 5 notes whose body is "n" and touches the previous
// save's first note. After each save returns it writes "n rows" on standard output,
// unbuffered, so the parent knows that save was committed. The parent kills it with
// SIGKILL at a random moment and checks that every reported save is in the store.
import Foundation
import TrellisStore

let arguments = CommandLine.arguments
guard arguments.count == 4, let first = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: trellis-store-crasher STORE MODEL FIRST\n".utf8))
    exit(2)
}

do {
    let model = try ManagedObjectModel(contentsOf: URL(fileURLWithPath: arguments[2]))
    let store = try PersistentStore(url: URL(fileURLWithPath: arguments[1]), model: model)
    let context = store.newContext()
    context.isUndoRegistrationEnabled = false
    var previous: ManagedObject?
    var sequence = first
    while true {
        let rows = 1 + sequence % 5
        var firstNote: ManagedObject?
        for row in 0..<rows {
            let now = Date()
            let note = try context.insert("Note", values: [
                "title": .string("save \(sequence) row \(row)"), "body": .string(String(sequence)),
                "created": .date(now), "updated": .date(now),
            ])
            firstNote = firstNote ?? note
        }
        previous?["updated"] = .date(Date())
        try context.save()
        FileHandle.standardOutput.write(Data("\(sequence) \(rows)\n".utf8))
        previous = firstNote
        sequence += 1
    }
} catch {
    FileHandle.standardError.write(Data("trellis-store-crasher: \(error)\n".utf8))
    exit(1)
}
