import Foundation
import Logging

extension Logger {
    /// A logger for one part of Trellis (`trellis.store`, `trellis.plugins`, …): a
    /// `Logger(label:)` from the handler the app bootstrapped, at the level that
    /// `TRELLIS_LOG_LEVEL` names when it is set (`trace`, `debug`, `info`, `notice`, `warning`,
    /// `error`, `critical`).
    ///
    /// So Trellis's own logging can be turned down (the test command runs with `warning`) or
    /// up (`TRELLIS_LOG_LEVEL=debug` to follow the bus and the plugins) without touching the
    /// app's loggers. A logger an app passes in (`FrontController(bus:logger:)`) is used as given.
    @usableFromInline
    package init(trellis label: String) {
        self.init(label: label)
        if let level = trellisLogLevel { logLevel = level }
    }
}

/// `TRELLIS_LOG_LEVEL`, read once (`nil` when unset or not a level's name).
private let trellisLogLevel = ProcessEnvironment.current["TRELLIS_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:))
