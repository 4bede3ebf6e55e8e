import Foundation
import TrellisCore
import TrellisHTTPABI

#if canImport(Glibc)
import Glibc
#endif

/// The HTTP transport library, `libTrellisHTTP.so` (URLSession behind the C table of
/// `trellis_http.h`; its source, `Sources/TrellisHTTP`, says why it is a library of its own),
/// opened with `dlopen` the first time a request is sent, so that a process that never syncs
/// never loads FoundationNetworking and libcurl.
///
/// Looked for, in order: `$TRELLIS_HTTP_LIBRARY`; beside the running executable (a SwiftPM
/// build folder, tests included); `<prefix>/lib/trellis/`, where the executable is
/// `<prefix>/bin/<name>` (`meson install`).
final class HTTPLibrary: Sendable {
    static let fileName = "libTrellisHTTP.so"
    static let abiVersion = UInt32(TRELLIS_HTTP_ABI_VERSION)

    /// The library, loaded once per process on first use, or why it could not be.
    static let shared: Result<HTTPLibrary, LoadError> = load(from: candidates())

    /// The library's function table; `start`, `cancel` and `release` are not NULL (``load(from:)``
    /// checks them).
    private let api: trellis_http_api

    /// Why the library could not be used.
    struct LoadError: Error, CustomStringConvertible {
        let description: String
    }

    private init(api: trellis_http_api) {
        self.api = api
    }

    /// The places looked in, in order.
    static func candidates(environment: [String: String] = ProcessEnvironment.current,
                           executable: URL = RunningExecutable.url) -> [String] {
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
        // The symbol is the entry trellis_http.h declares, so its type is the header's.
        guard let entry = dlsym(handle, TRELLIS_HTTP_ENTRY_SYMBOL).map({ unsafeBitCast($0, to: trellis_http_entry_fn.self) }),
              let table = entry()
        else {
            return .failure(LoadError(description: "\(path) is not Trellis's HTTP library (its functions are missing)"))
        }
        // abi_version and struct_size come first in every version (trellis_http.c checks it).
        let (version, size) = (table.pointee.abi_version, Int(table.pointee.struct_size))
        guard version == abiVersion else {
            return .failure(LoadError(description: "\(path) has ABI version \(version), this build needs \(abiVersion)"))
        }
        guard size >= MemoryLayout<trellis_http_api>.size,
              table.pointee.start != nil, table.pointee.cancel != nil, table.pointee.release != nil else {
            return .failure(LoadError(description: "\(path) has a broken function table (\(size) bytes, or a function missing)"))
        }
        return .success(HTTPLibrary(api: table.pointee))
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

    /// What became of a request (`TRELLIS_HTTP_*` in trellis_http.h).
    enum Answer: Sendable {
        case answered(status: Int, etag: String?, location: String?, body: Data)
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
                    api.start!(request.method, request.url, headers, body.bindMemory(to: UInt8.self).baseAddress,
                               body.count, request.timeout, context, { context, outcome, status, etag, location, body, length, message in
                        let answer: Answer
                        let text = message.map { String(cString: $0) } ?? "unknown error"
                        switch outcome {
                        case TRELLIS_HTTP_ANSWERED:
                            answer = .answered(status: Int(status), etag: etag.map { String(cString: $0) },
                                               location: location.map { String(cString: $0) },
                                               body: body.map { Data(bytes: $0, count: length) } ?? Data())
                        case TRELLIS_HTTP_CANCELLED: answer = .cancelled
                        case TRELLIS_HTTP_TIMED_OUT: answer = .timedOut
                        case TRELLIS_HTTP_UNREACHABLE: answer = .unreachable(text)
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
        UnsafeMutableRawPointer(bitPattern: reference).map { api.cancel!($0) }
    }

    fileprivate func release(_ reference: UInt) {
        UnsafeMutableRawPointer(bitPattern: reference).map { api.release!($0) }
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

    /// `reference` is the library's handle (never NULL by trellis_http.h; NULL is kept as 0,
    /// which nothing cancels or releases).
    func started(_ reference: UnsafeMutableRawPointer?) {
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
