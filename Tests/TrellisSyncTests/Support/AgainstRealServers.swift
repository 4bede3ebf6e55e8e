import Testing

/// The suites that run real servers and processes (json-server-py, the fault proxy, the
/// `trellis` executable), one test at a time: side by side they load a small machine enough
/// to starve the rest of the run, under ThreadSanitizer above all.
@Suite("Against real servers, one test at a time", .serialized)
enum AgainstRealServers {}
