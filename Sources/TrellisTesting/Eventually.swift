/// Polls `condition` until it holds or `timeout` passes, sleeping a few milliseconds between
/// polls so that the actor it runs on (the main actor, for a `@MainActor` test) and other tasks
/// go on meanwhile. Returns whether the condition held. The condition runs in the caller's
/// isolation, so it may read what the caller may read.
///
/// For state that has no event to wait for (a list's rows, a page's message); an event is
/// better waited for with an ``EventRecorder``.
///
/// ```swift
/// #expect(await eventually { screen.page?.values.path == "/notes" })
/// ```
///
/// - Parameter timeout: a deadline for a failure, not a measurement: by default
///   ``testDeadline``.
public func eventually(isolation: isolated (any Actor)? = #isolation, timeout: Duration = testDeadline,
                       _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while try await !condition() {
        guard ContinuousClock.now < deadline else { return false }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return true
}
