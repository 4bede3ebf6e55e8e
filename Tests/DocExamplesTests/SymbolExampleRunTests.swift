import Testing

/// The examples of TrellisShared's doc comments run (`.ci/doc-examples` lists them in
/// Generated/Symbols_Runnable.swift), and what each one asserts holds: the results the docs show
/// are the type's.
@Suite("Docs: the examples of TrellisShared's doc comments run")
struct SymbolExampleRunTests {
    @Test("the example runs, and what it asserts holds", arguments: SymbolExample.runnable)
    func example(at place: String) throws {
        try SymbolExample.run(place)
    }
}
