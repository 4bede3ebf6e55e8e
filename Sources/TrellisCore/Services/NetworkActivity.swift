/// The messages of network activity (the seed's `net_state` contract), for code that does
/// network work and for front ends that show an activity indicator.
///
/// Anything that starts a piece of network work triggers ``on``, and ``off`` when it is done,
/// whatever the outcome (TrellisSync does, around every attempt). The `net_state` service of
/// the NetworkActivity plugin counts them and triggers ``changed`` with
/// `{"active": Bool, "count": Int}` whenever the indicator should appear or disappear; front
/// ends watch it. Without that plugin loaded nobody counts, and the indicator stays hidden.
///
/// ```swift
/// bus.trigger(NetworkActivity.on, ["url": .string(url.absoluteString)])
/// defer { bus.trigger(NetworkActivity.off, ["url": .string(url.absoluteString)]) }
/// let notes = try await fetch(url)
/// ```
public enum NetworkActivity {
    /// Triggered when a piece of network work begins: `network:on`.
    public static let on = "network:on"
    /// Triggered when a piece of network work ends: `network:off`.
    public static let off = "network:off"
    /// Triggered by `net_state` when the indicator should appear or disappear: `activity:changed`.
    public static let changed = "activity:changed"
    /// The service that counts the work, provided by the NetworkActivity plugin: `net_state`.
    public static let serviceName = "net_state"
}
