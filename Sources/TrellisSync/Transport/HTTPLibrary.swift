import Foundation
import TrellisCore

#if canImport(Glibc)
import Glibc
#endif

/// The HTTP transport library, `libTrellisHTTP.so` (URLSession behind four C functions; its
/// source, `Sources/TrellisHTTP`, says why it is a library of its own), opened with `dlopen`
/// the first time a request is sent, so that a process that never syncs never loads
/// FoundationNetworking and libcurl.
///
/// Looked for, in order: `$TRELLIS_HTTP_LIBRARY`; beside the running executable (a SwiftPM
/// build folder, tests included); `<prefix>/lib/trellis/`, where the executable is
/// `<prefix>/bin/<name>` (`meson install`).
final class HTTPLibrary: Sendable {
    static let fileName = "libTrellisHTTP.so"
    static let abiVersion: Int32 = 1

    /// The library, loaded once per process on first use, or why it could not be.
    static let shared: Result<HTTPLibrary, LoadError> = load(from: candidates())

    typealias Done = @convention(c) (
        UnsafeMutableRawPointer?, Int32, Int32, UnsafePointer<CChar>?, UnsafePointer<UInt8>?, Int, UnsafePointer<CChar>?
    ) -> Void
    private typealias Start = @convention(c) (
        UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafePointer<UInt8>?, Int, Double,
        UnsafeMutableRawPointer?, Done
    ) -> UnsafeMutableRawPointer
    private typealias Handle = @convention(c) (UnsafeMutableRawPointer) -> Void
    private typealias Version = @convention(c) () -> Int32

    private let startFunction: Start
    private let cancelFunction: Handle
    private let releaseFunction: Handle

    /// Why the library could not be used.
    struct LoadError: Error, CustomStringConvertible {
        let description: String
    }

    private init(start: Start, cancel: Handle, release: Handle) {
        startFunction = start
        cancelFunction = cancel
        releaseFunction = release
    }

    /// The places looked in, in order.
    static func candidates(environment: [String: String] = ProcessInfo.processInfo.environment,
                           executable: URL = PluginSearchPath.executableURL()) -> [String] {
        var paths: [String] = []
        if let path = environment["TRELLIS_HTTP_LIBRARY"], !path.isEmpty { paths.append(path) }
        let directory = executable.deletingLastPathComponent()
        paths.append(directory.appendingPathComponent(fileName).path)
        paths.append(directory.deletingLastPathComponent().appendingPathComponent("lib/trellis/\(fileName)").path)
        return paths
    }

    /// Opens the first of `paths` that exists and checks it is this library, of this ABI version.
    static func load(from paths: [String]) -> Result<HTTPLibrary, LoadError> {
        guard let path = paths.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            return .failure(LoadError(description: "\(fileName) is not installed: looked in \(paths.joined(separator: ", ")) (set TRELLIS_HTTP_LIBRARY to its path)"))
        }
        // Never closed: a Swift library must not be unloaded.
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown dlopen error"
            return .failure(LoadError(description: "\(path) cannot be loaded: \(reason)"))
        }
        func symbol<T>(_ name: String, as type: T.Type) -> T? {
            dlsym(handle, name).map { unsafeBitCast($0, to: type) }
        }
        guard let version = symbol("trellis_http_abi_version", as: Version.self),
              let start = symbol("trellis_http_start", as: Start.self),
              let cancel = symbol("trellis_http_cancel", as: Handle.self),
              let release = symbol("trellis_http_release", as: Handle.self)
        else {
            return .failure(LoadError(description: "\(path) is not Trellis's HTTP library (its functions are missing)"))
        }
        guard version() == abiVersion else {
            return .failure(LoadError(description: "\(path) has ABI version \(version()), this build needs \(abiVersion)"))
        }
        return .success(HTTPLibrary(start: start, cancel: cancel, release: release))
    }

    /// A request for ``exchange(_:)``.
    struct Request: Sendable {
        let method: String
        let url: String
        /// Header name and value pairs.
        let headers: [(name: String, value: String)]
        let body: Data?
        /// The library's own timeout (URLSession's), in seconds.
        let timeout: TimeInterval
    }

    /// What became of a request (`Outcome` in the library).
    enum Answer: Sendable {
        case answered(status: Int, etag: String?, body: Data)
        case cancelled
        case timedOut
        case unreachable(String)
        case failed(String)
    }

    /// Sends `request` and waits for its answer; cancelling the calling task cancels it.
    func exchange(_ request: Request) async -> Answer {
        let pending = PendingRequest(library: self)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Answer, Never>) in
                let context = Unmanaged.passRetained(AnswerBox(continuation)).toOpaque()
                let headers = request.headers.map { "\($0.name): \($0.value)\n" }.joined()
                let reference = (request.body ?? Data()).withUnsafeBytes { body in
                    startFunction(request.method, request.url, headers, body.bindMemory(to: UInt8.self).baseAddress,
                                  body.count, request.timeout, context, { context, kind, status, etag, body, length, message in
                        let answer: Answer
                        let text = message.map { String(cString: $0) } ?? "unknown error"
                        switch kind {
                        case 0: answer = .answered(status: Int(status), etag: etag.map { String(cString: $0) },
                                                   body: body.map { Data(bytes: $0, count: length) } ?? Data())
                        case 1: answer = .cancelled
                        case 2: answer = .timedOut
                        case 3: answer = .unreachable(text)
                        default: answer = .failed(text)
                        }
                        Unmanaged<AnswerBox>.fromOpaque(context!).takeRetainedValue().continuation.resume(returning: answer)
                    })
                }
                pending.started(reference)
            }
        } onCancel: {
            pending.cancel()
        }
    }

    fileprivate func cancel(_ reference: UInt) {
        UnsafeMutableRawPointer(bitPattern: reference).map(cancelFunction)
    }

    fileprivate func release(_ reference: UInt) {
        UnsafeMutableRawPointer(bitPattern: reference).map(releaseFunction)
    }
}

/// The continuation a request's `done` callback resumes, passed to the library as context.
private final class AnswerBox {
    let continuation: CheckedContinuation<HTTPLibrary.Answer, Never>
    init(_ continuation: CheckedContinuation<HTTPLibrary.Answer, Never>) { self.continuation = continuation }
}

/// The library's request reference, shared between the starting code and the cancellation
/// handler, which may run before the request is started; released with the last of them.
private final class PendingRequest: Sendable {
    private struct State: Sendable {
        var reference: UInt = 0
        var cancelled = false
    }

    private let library: HTTPLibrary
    private let state = LockedState(State())

    init(library: HTTPLibrary) { self.library = library }

    deinit {
        library.release(state.withLock { $0.reference })
    }

    func started(_ reference: UnsafeMutableRawPointer) {
        let address = UInt(bitPattern: reference)
        let cancelled = state.withLock { state in
            state.reference = address
            return state.cancelled
        }
        if cancelled { library.cancel(address) }
    }

    /// Never blocks: the library hands the cancellation to another queue.
    func cancel() {
        let address = state.withLock { state in
            state.cancelled = true
            return state.reference
        }
        library.cancel(address)
    }
}
