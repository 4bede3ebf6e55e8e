import Logging

/// The logger of the table container and its strategies.
let tableLogger = Logger(trellis: "trellis.table")
