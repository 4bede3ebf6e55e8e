import Dispatch
import Foundation

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
// The boundary is C functions over plain values (no Swift type crosses it), so this library
// needs no copy of TrellisCore or TrellisSync. Version 1:
//
//   int32_t trellis_http_abi_version(void);
//   void *trellis_http_start(const char *method, const char *url,
//                            const char *headers,        // "Name: value\n" lines
//                            const uint8_t *body, intptr_t length, double timeout,
//                            void *context, trellis_http_done done);
//   void trellis_http_cancel(void *request);            // never blocks; no-op once done
//   void trellis_http_release(void *request);           // once, after `done` was called
//
//   typedef void (*trellis_http_done)(void *context, int32_t kind, int32_t status,
//                                     const char *etag, const uint8_t *body, intptr_t length,
//                                     const char *message);
//
// `done` is called exactly once, on a URLSession queue; its pointers are valid only during
// the call. `kind` is one of the values of `Outcome` below. Inputs are copied before
// `trellis_http_start` returns.

/// What became of a request (`kind` in `trellis_http_done`).
enum Outcome: Int32 {
    /// An HTTP answer, whatever its status: `status`, `etag` and `body` are set.
    case answered = 0
    case cancelled = 1
    case timedOut = 2
    /// No connection: refused, host not found, network down.
    case unreachable = 3
    /// Anything else; `message` says what.
    case failed = 4
}

public typealias DoneCallback = @convention(c) (
    UnsafeMutableRawPointer?, Int32, Int32, UnsafePointer<CChar>?, UnsafePointer<UInt8>?, Int, UnsafePointer<CChar>?
) -> Void

/// One session for the process: ephemeral (no cookies, no cache), like every request needs.
private let session: URLSession = {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.urlCache = nil
    configuration.httpCookieStorage = nil
    return URLSession(configuration: configuration)
}()

@_cdecl("trellis_http_abi_version")
public func trellisHTTPABIVersion() -> Int32 { 1 }

@_cdecl("trellis_http_start")
public func trellisHTTPStart(
    _ method: UnsafePointer<CChar>, _ url: UnsafePointer<CChar>, _ headers: UnsafePointer<CChar>,
    _ body: UnsafePointer<UInt8>?, _ length: Int, _ timeout: Double,
    _ context: UnsafeMutableRawPointer?, _ done: DoneCallback
) -> UnsafeMutableRawPointer {
    guard let target = URL(string: String(cString: url)) else {
        finish(done, context, .failed, message: "not a URL: \(String(cString: url))")
        return Unmanaged.passRetained(DataRequest(task: nil)).toOpaque()
    }
    var urlRequest = URLRequest(url: target)
    urlRequest.httpMethod = String(cString: method)
    urlRequest.timeoutInterval = timeout
    for line in String(cString: headers).split(separator: "\n") {
        guard let colon = line.firstIndex(of: ":") else { continue }
        urlRequest.setValue(line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces),
                            forHTTPHeaderField: String(line[..<colon]))
    }
    if let body, length > 0 { urlRequest.httpBody = Data(bytes: body, count: length) }
    // The context pointer only travels back to `done`; it is never dereferenced here.
    let contextAddress = UInt(bitPattern: context)
    let task = session.dataTask(with: urlRequest) { data, response, error in
        let context = UnsafeMutableRawPointer(bitPattern: contextAddress)
        if let error {
            let (kind, message) = describe(error)
            finish(done, context, kind, message: message)
        } else if let http = response as? HTTPURLResponse {
            let etag = http.value(forHTTPHeaderField: "ETag")
            let data = data ?? Data()
            data.withUnsafeBytes { bytes in
                withOptionalCString(etag) { etag in
                    done(context, Outcome.answered.rawValue, Int32(clamping: http.statusCode), etag,
                         bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, nil)
                }
            }
        } else {
            finish(done, context, .failed, message: "the answer is not HTTP")
        }
    }
    task.resume()
    return Unmanaged.passRetained(DataRequest(task: task)).toOpaque()
}

@_cdecl("trellis_http_cancel")
public func trellisHTTPCancel(_ reference: UnsafeMutableRawPointer) {
    Unmanaged<DataRequest>.fromOpaque(reference).takeUnretainedValue().cancel()
}

@_cdecl("trellis_http_release")
public func trellisHTTPRelease(_ reference: UnsafeMutableRawPointer) {
    Unmanaged<DataRequest>.fromOpaque(reference).release()
}

private func finish(_ done: DoneCallback, _ context: UnsafeMutableRawPointer?, _ kind: Outcome, message: String) {
    message.withCString { done(context, kind.rawValue, 0, nil, nil, 0, $0) }
}

private func withOptionalCString<T>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
    guard let string else { return body(nil) }
    return string.withCString(body)
}

/// A URLSession (or task) error as an outcome and a reason.
private func describe(_ error: any Error) -> (Outcome, String) {
    guard let urlError = error as? URLError else { return (.failed, String(describing: error)) }
    let reason = (urlError.userInfo[NSLocalizedDescriptionKey] as? String) ?? "URL error \(urlError.code.rawValue)"
    switch urlError.code {
    case .cancelled: return (.cancelled, reason)
    case .timedOut: return (.timedOut, reason)
    case .cannotConnectToHost, .cannotFindHost, .networkConnectionLost, .notConnectedToInternet, .dnsLookupFailed:
        return (.unreachable, reason)
    default: return (.failed, reason)
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
