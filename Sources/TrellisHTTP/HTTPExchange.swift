import Dispatch
import Foundation
import TrellisHTTPABI

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// libTrellisHTTP.so: TrellisSync's HTTP transport (URLSession), in a library of its own that
// TrellisSync loads with dlopen on its first request.
//
// Why: on Linux, FoundationNetworking brings libcurl and about 30 more libraries (TLS, HTTP/2,
// LDAP, Kerberos…) into every process that links it, ~9,000 symbol bindings before `main`:
// a cost every launch of the window paid, server or not. Only this file links it now.
//
// The boundary is Sources/TrellisHTTPABI/include/trellis_http.h, which both sides compile
// against: this library exports `trellis_http_entry`, returning the function table below.
// No Swift type crosses it, so this library needs no copy of TrellisCore or TrellisSync.

/// One session for the process: ephemeral (no cookies, no cache), like every request needs, and
/// a delegate that follows no redirect (see ``Transfers``).
private let transfers = Transfers()
private let session: URLSession = {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.urlCache = nil
    configuration.httpCookieStorage = nil
    return URLSession(configuration: configuration, delegate: transfers, delegateQueue: nil)
}()

/// The table `trellis_http_entry` returns.
// Written once, by Swift's thread-safe initialisation of globals, and only read afterwards.
nonisolated(unsafe) private let table: UnsafeMutablePointer<trellis_http_api> = {
    let table = UnsafeMutablePointer<trellis_http_api>.allocate(capacity: 1)
    table.initialize(to: trellis_http_api(
        abi_version: UInt32(TRELLIS_HTTP_ABI_VERSION),
        struct_size: UInt32(MemoryLayout<trellis_http_api>.size),
        start: { method, url, headers, body, length, timeout, context, done in
            guard let done else { return Unmanaged.passRetained(DataRequest(task: nil)).toOpaque() }
            guard let method, let url, let headers else {
                finish(done, context, TRELLIS_HTTP_FAILED, message: "the method, URL or headers are NULL")
                return Unmanaged.passRetained(DataRequest(task: nil)).toOpaque()
            }
            return start(String(cString: method), String(cString: url), String(cString: headers), body, length, timeout,
                         context, done)
        },
        // A handle is a `DataRequest` retained by `start` until `release`.
        cancel: { request in request.map { Unmanaged<DataRequest>.fromOpaque($0).takeUnretainedValue().cancel() } },
        release: { request in request.map { Unmanaged<DataRequest>.fromOpaque($0).release() } }
    ))
    return table
}()

@_cdecl("trellis_http_entry")
public func trellisHTTPEntry() -> UnsafePointer<trellis_http_api> {
    UnsafePointer(table)
}

/// `start` of the table: the request's handle is a retained `DataRequest`.
private func start(_ method: String, _ url: String, _ headers: String, _ body: UnsafePointer<UInt8>?, _ length: Int,
                   _ timeout: Double, _ context: UnsafeMutableRawPointer?, _ done: trellis_http_done) -> UnsafeMutableRawPointer {
    guard let target = URL(string: url) else {
        finish(done, context, TRELLIS_HTTP_FAILED, message: "not a URL: \(url)")
        return Unmanaged.passRetained(DataRequest(task: nil)).toOpaque()
    }
    var urlRequest = URLRequest(url: target)
    urlRequest.httpMethod = method
    urlRequest.timeoutInterval = timeout
    for line in headers.split(separator: "\n") {
        guard let colon = line.firstIndex(of: ":") else { continue }
        urlRequest.setValue(line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces),
                            forHTTPHeaderField: String(line[..<colon]))
    }
    if let body, length > 0 { urlRequest.httpBody = Data(bytes: body, count: length) }
    let task = session.dataTask(with: urlRequest)
    transfers.begin(task, Transfer(done: done, contextAddress: UInt(bitPattern: context)))
    return Unmanaged.passRetained(DataRequest(task: task)).toOpaque()
}

private func finish(_ done: trellis_http_done, _ context: UnsafeMutableRawPointer?, _ outcome: Int32, message: String) {
    message.withCString { done(context, outcome, 0, nil, nil, nil, 0, $0) }
}

/// One started request: the answer's bytes as they arrive, and where its outcome goes.
private final class Transfer: @unchecked Sendable {
    // `data` is touched only on the session's delegate queue, which is serial; the rest is
    // immutable. The context pointer only travels back to `done`; it is never dereferenced here.
    let done: trellis_http_done
    let contextAddress: UInt
    var data = Data()

    init(done: @escaping trellis_http_done, contextAddress: UInt) {
        self.done = done
        self.contextAddress = contextAddress
    }

    /// Calls `done` with the task's outcome.
    func complete(_ task: URLSessionTask, error: (any Error)?) {
        let context = UnsafeMutableRawPointer(bitPattern: contextAddress)
        if let error {
            let (outcome, message) = describe(error)
            finish(done, context, outcome, message: message)
        } else if let http = task.response as? HTTPURLResponse {
            let etag = http.value(forHTTPHeaderField: "ETag")
            let location = http.value(forHTTPHeaderField: "Location")
            data.withUnsafeBytes { bytes in
                withOptionalCString(etag) { etag in
                    withOptionalCString(location) { location in
                        done(context, TRELLIS_HTTP_ANSWERED, Int32(clamping: http.statusCode), etag, location,
                             bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, nil)
                    }
                }
            }
        } else {
            finish(done, context, TRELLIS_HTTP_FAILED, message: "the answer is not HTTP")
        }
    }
}

/// The session's delegate: collects each task's answer and reports it, and follows no
/// redirect, so that a 3xx reaches TrellisSync as it was sent (a library that followed it
/// itself would answer a PUT redirected with 301 by the answer to a GET).
private final class Transfers: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // `running` is guarded by `lock`: tasks begin on any thread, delegate calls come on the
    // session's queue.
    private let lock = NSLock()
    private var running: [Int: Transfer] = [:]

    func begin(_ task: URLSessionDataTask, _ transfer: Transfer) {
        lock.withLock { running[task.taskIdentifier] = transfer }
        task.resume()
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.withLock { running[dataTask.taskIdentifier] }?.data.append(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let transfer = lock.withLock { running.removeValue(forKey: task.taskIdentifier) }
        transfer?.complete(task, error: error)
    }
}

private func withOptionalCString<T>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
    guard let string else { return body(nil) }
    return string.withCString(body)
}

/// A URLSession (or task) error as an outcome (`TRELLIS_HTTP_*`) and a reason.
private func describe(_ error: any Error) -> (Int32, String) {
    guard let urlError = error as? URLError else { return (TRELLIS_HTTP_FAILED, String(describing: error)) }
    let reason = (urlError.userInfo[NSLocalizedDescriptionKey] as? String) ?? "URL error \(urlError.code.rawValue)"
    switch urlError.code {
    case .cancelled: return (TRELLIS_HTTP_CANCELLED, reason)
    case .timedOut: return (TRELLIS_HTTP_TIMED_OUT, reason)
    case .cannotConnectToHost, .cannotFindHost, .networkConnectionLost, .notConnectedToInternet, .dnsLookupFailed:
        return (TRELLIS_HTTP_UNREACHABLE, reason)
    default: return (TRELLIS_HTTP_FAILED, reason)
    }
}

/// A started data task (none when the request was refused before one was made), whose
/// `cancel()` never blocks.
///
/// `URLSessionTask.cancel()` waits for the session's work queue. Called from a Swift task's
/// cancellation handler (as `URLSession.data(for:)` does on Linux), it can deadlock with
/// that queue, which may be waiting for the task's lock to deliver its answer; so it is
/// always handed to another queue here. The caller only gets a request once its task has
/// started, so there is no cancellation before the start to remember.
private final class DataRequest: Sendable {
    private let task: URLSessionDataTask?

    init(task: URLSessionDataTask?) { self.task = task }

    func cancel() {
        guard let task else { return }
        DispatchQueue.global().async { task.cancel() }
    }
}
