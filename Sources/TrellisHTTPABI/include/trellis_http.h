/* trellis_http.h: the C boundary of libTrellisHTTP.so (version 3).
 *
 * libTrellisHTTP.so is TrellisSync's HTTP transport: URLSession in a library of its own, which
 * TrellisSync opens with dlopen(RTLD_NOW | RTLD_LOCAL) on its first request, so that a process
 * that never syncs never loads FoundationNetworking and libcurl (Sources/TrellisHTTP says why).
 * Both sides are compiled against this header, so neither repeats its types: the library
 * exports one symbol, `trellis_http_entry`, which returns its function table; TrellisSync looks
 * that symbol up, checks the table's version and size, and calls through it. Only C types
 * cross the boundary. Version 1 exported the four functions one by one; version 2 followed
 * redirects inside the library (a PUT answered 301 could come back as the answer to a GET);
 * version 3 never follows one and hands its `Location` over. A library of another version is
 * refused.
 *
 * Memory: every pointer argument is borrowed for the duration of the call (the callee copies
 * what it keeps); the table is owned by the library and valid for the life of the process.
 * Threads: every function may be called from any thread.
 */
#ifndef TRELLIS_HTTP_H
#define TRELLIS_HTTP_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The version this header describes; the table's `abi_version` must equal it. */
#define TRELLIS_HTTP_ABI_VERSION 3
/** The name of the one symbol the library exports. */
#define TRELLIS_HTTP_ENTRY_SYMBOL "trellis_http_entry"

/* What became of a request: the `outcome` of trellis_http_done. */
/** An HTTP answer, whatever its status (a redirect is an answer too: it is never followed):
 *  `status`, `etag` and `location` (or NULL) and `body` are set. */
#define TRELLIS_HTTP_ANSWERED 0
/** Cancelled with trellis_http_api.cancel. */
#define TRELLIS_HTTP_CANCELLED 1
/** No answer within the request's timeout. */
#define TRELLIS_HTTP_TIMED_OUT 2
/** No connection: refused, host not found, network down; `message` says which. */
#define TRELLIS_HTTP_UNREACHABLE 3
/** Anything else; `message` says what. */
#define TRELLIS_HTTP_FAILED 4

/**
 * Called exactly once per started request (see start). `context` is the
 * one given to start. `etag` and `location` (the answer's headers, or NULL), `body` (`length`
 * bytes) and `message` are library-owned and valid only during the call; `message` is NULL
 * for an answer.
 */
typedef void (*trellis_http_done)(void *context, int32_t outcome, int32_t status, const char *etag,
                                  const char *location, const uint8_t *body, intptr_t length,
                                  const char *message);

/** The library's function table. */
typedef struct trellis_http_api {
    /** TRELLIS_HTTP_ABI_VERSION as compiled into the library. */
    uint32_t abi_version;
    /** sizeof(trellis_http_api) as compiled into the library. */
    uint32_t struct_size;

    /**
     * Starts a request and returns its handle at once (never NULL). `headers` holds
     * "Name: value\n" lines; `body` may be NULL when `length` is 0; `timeout` is in seconds.
     * `done` is called exactly once: later, or before start returns when the request cannot
     * be made (a URL that does not parse: TRELLIS_HTTP_FAILED).
     */
    void *(*start)(const char *method, const char *url, const char *headers, const uint8_t *body,
                   intptr_t length, double timeout, void *context, trellis_http_done done);

    /** Cancels a request: `done` then reports TRELLIS_HTTP_CANCELLED, unless it already ran.
     *  Never blocks. */
    void (*cancel)(void *request);

    /** Releases a request's handle; call once, after `done` ran. */
    void (*release)(void *request);
} trellis_http_api;

/** The entry, as looked up with dlsym: returns the library's table. */
typedef const trellis_http_api *(*trellis_http_entry_fn)(void);

/** The entry's prototype. */
const trellis_http_api *trellis_http_entry(void);

#ifdef __cplusplus
}
#endif

#endif
