/// Work the shell started that ends later, out of its sight — a plugin starting in a process
/// of its own, or handling an event whose answers are still to come. Front ends that wait for
/// the shell to be idle (`HeadlessFrontend.settle()`, the window's automation) ask every
/// source registered with ``Shell/addPendingWork(_:)``.
public protocol PendingWorkSource: AnyObject, Sendable {
    /// What is still under way, in words (`plugin "weather": starting`); empty when nothing is.
    /// Any thread.
    var pendingWork: [String] { get }
}

extension Shell {
    /// Registers `source`: from now on ``pendingWork`` includes its work.
    public func addPendingWork(_ source: any PendingWorkSource) {
        pendingWorkSources.append(source)
    }

    /// What every registered source has still under way.
    public var pendingWork: [String] {
        pendingWorkSources.flatMap(\.pendingWork)
    }
}
