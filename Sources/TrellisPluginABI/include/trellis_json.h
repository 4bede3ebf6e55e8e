/* trellis_json.h: a small JSON reader and writer for the shapes the Trellis plugin ABI uses.
 *
 * Header-only: include it in any number of C files; every function is `static inline`, and
 * nothing is allocated except by the writer (one growing buffer). The plugin host
 * (`trellis-plugin-host`) reads and writes its JSON with exactly this code, so a C plugin
 * that uses it reads event data the way the host checked it.
 *
 * Reading
 * -------
 * trellis_json_parse() checks a whole text once (RFC 8259: UTF-8 only, no comments, no
 * trailing commas, no lone surrogates, numbers a double can hold, at most
 * TRELLIS_JSON_MAX_DEPTH arrays and objects inside each other) and gives back the value as a
 * `trellis_json`: a span of the text, never a copy. Every other reading function takes a
 * span that came from a checked text, so none of them fails on malformed input:
 *
 *     trellis_json data, city;
 *     trellis_json_error error;
 *     if (!trellis_json_parse (data_json, strlen (data_json), &data, &error))
 *       return;                                  // error.reason, at byte error.offset
 *     char name[64];
 *     if (trellis_json_get (data, "city", &city) && trellis_json_string (city, name, sizeof name) < sizeof name)
 *       use (name);                              // decoded, NUL-terminated
 *
 *     int64_t page = trellis_json_get_int (data, "page", -1); // a member, or the fallback
 *
 *     trellis_json_iter rows = trellis_json_iterate (data);   // an array or an object
 *     trellis_json key, row;
 *     while (trellis_json_next (&rows, &key, &row)) { ... }   // key: objects only (NULL for arrays)
 *
 * Writing
 * -------
 * A trellis_json_writer puts commas and colons where they belong, escapes strings (control
 * characters as \n or \u00XX; bytes that are not UTF-8 become U+FFFD, so the output is always
 * valid) and writes non-finite numbers as null:
 *
 *     trellis_json_writer out;
 *     trellis_json_writer_init (&out);
 *     trellis_json_begin_object (&out);
 *     trellis_json_member_int (&out, "page", page);           // a key and its value
 *     trellis_json_key (&out, "text"); trellis_json_string_value (&out, "Hello");
 *     trellis_json_end_object (&out);
 *     host->trigger (host->context, "shelf:page:show", trellis_json_writer_text (&out));
 *     trellis_json_writer_free (&out);
 *
 * trellis_json_writer_text() is NULL when memory ran out or the calls did not make one
 * complete value (an unclosed object, a key without a value): check it before use. The
 * writer is in trellis_json_writer.h, which this header includes.
 */
#ifndef TRELLIS_JSON_H
#define TRELLIS_JSON_H

#include <errno.h>
#include <inttypes.h>
#include <math.h>  /* isfinite, a macro: nothing to link */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Deeper nesting is refused by the reader and by the writer (the host's Swift reader's limit). */
#define TRELLIS_JSON_MAX_DEPTH 512

/** What a value is. */
typedef enum trellis_json_type {
    TRELLIS_JSON_NULL,
    TRELLIS_JSON_FALSE,
    TRELLIS_JSON_TRUE,
    TRELLIS_JSON_NUMBER,
    TRELLIS_JSON_STRING,
    TRELLIS_JSON_ARRAY,
    TRELLIS_JSON_OBJECT,
} trellis_json_type;

/** One value of a checked text: the bytes [start, end) of that text, borrowed from it. */
typedef struct trellis_json {
    const char *start;
    const char *end;
} trellis_json;

/** Why trellis_json_parse() refused a text: a static reason and the byte offset it concerns. */
typedef struct trellis_json_error {
    const char *reason;
    size_t offset;
} trellis_json_error;

/** A walk over the elements of an array or the members of an object (trellis_json_iterate). */
typedef struct trellis_json_iter {
    const char *cursor;
    const char *end;
} trellis_json_iter;

/* ------------------------------------------------------------------------------------------
 * The checker: one recursive-descent pass, depth-limited.
 */

typedef struct trellis_json_checker_ {
    const char *text;
    const char *at;
    const char *end;
    trellis_json_error *error;
} trellis_json_checker_;

static inline int trellis_json_fail_ (trellis_json_checker_ *c, const char *at, const char *reason)
{
    if (c->error) {
        c->error->reason = reason;
        c->error->offset = (size_t) (at - c->text);
    }
    return 0;
}

static inline void trellis_json_space_ (trellis_json_checker_ *c)
{
    while (c->at < c->end && (*c->at == ' ' || *c->at == '\t' || *c->at == '\n' || *c->at == '\r'))
        c->at++;
}

static inline int trellis_json_hex_ (char ch)
{
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}

/* The four hex digits at `p` (the caller checked they are there), or -1. */
static inline long trellis_json_u16_ (const char *p)
{
    long value = 0;
    for (int i = 0; i < 4; i++) {
        int digit = trellis_json_hex_ (p[i]);
        if (digit < 0) return -1;
        value = value * 16 + digit;
    }
    return value;
}

/* The length of the well-formed UTF-8 sequence at `p` (no overlongs, no surrogates, at most
 * U+10FFFF), or 0. */
static inline size_t trellis_json_utf8_ (const unsigned char *p, const unsigned char *end)
{
    size_t left = (size_t) (end - p);
    if (left == 0) return 0;
    if (p[0] < 0x80) return 1;
    if (p[0] >= 0xC2 && p[0] <= 0xDF)
        return left >= 2 && (p[1] & 0xC0) == 0x80 ? 2 : 0;
    if (p[0] >= 0xE0 && p[0] <= 0xEF) {
        if (left < 3 || (p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80) return 0;
        if (p[0] == 0xE0 && p[1] < 0xA0) return 0;   /* overlong */
        if (p[0] == 0xED && p[1] >= 0xA0) return 0;  /* a surrogate */
        return 3;
    }
    if (p[0] >= 0xF0 && p[0] <= 0xF4) {
        if (left < 4 || (p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80 || (p[3] & 0xC0) != 0x80) return 0;
        if (p[0] == 0xF0 && p[1] < 0x90) return 0;   /* overlong */
        if (p[0] == 0xF4 && p[1] >= 0x90) return 0;  /* past U+10FFFF */
        return 4;
    }
    return 0;
}

static inline int trellis_json_check_string_ (trellis_json_checker_ *c)
{
    const char *open = c->at++;
    while (c->at < c->end) {
        unsigned char ch = (unsigned char) *c->at;
        if (ch == '"') {
            c->at++;
            return 1;
        }
        if (ch < 0x20) return trellis_json_fail_ (c, c->at, "a control character in a string (escape it)");
        if (ch == '\\') {
            if (c->end - c->at < 2) break;
            char kind = c->at[1];
            if (kind == 'u') {
                if (c->end - c->at < 6) break;
                long unit = trellis_json_u16_ (c->at + 2);
                if (unit < 0) return trellis_json_fail_ (c, c->at, "a \\u escape without four hex digits");
                if (unit >= 0xDC00 && unit <= 0xDFFF) return trellis_json_fail_ (c, c->at, "a lone low surrogate");
                if (unit >= 0xD800 && unit <= 0xDBFF) {
                    long low = c->end - c->at >= 12 && c->at[6] == '\\' && c->at[7] == 'u' ? trellis_json_u16_ (c->at + 8) : -1;
                    if (low < 0xDC00 || low > 0xDFFF) return trellis_json_fail_ (c, c->at, "a high surrogate without its low half");
                    c->at += 12;
                } else {
                    c->at += 6;
                }
                continue;
            }
            if (!strchr ("\"\\/bfnrt", kind) || kind == 0) return trellis_json_fail_ (c, c->at, "an unknown escape");
            c->at += 2;
            continue;
        }
        size_t length = trellis_json_utf8_ ((const unsigned char *) c->at, (const unsigned char *) c->end);
        if (length == 0) return trellis_json_fail_ (c, c->at, "text that is not UTF-8");
        c->at += length;
    }
    return trellis_json_fail_ (c, open, "a string without its closing quote");
}

static inline int trellis_json_check_number_ (trellis_json_checker_ *c)
{
    const char *start = c->at;
    if (c->at < c->end && *c->at == '-') c->at++;
    if (c->at >= c->end || *c->at < '0' || *c->at > '9') return trellis_json_fail_ (c, start, "a number without digits");
    if (*c->at == '0') {
        c->at++;
        if (c->at < c->end && *c->at >= '0' && *c->at <= '9') return trellis_json_fail_ (c, start, "a number with a leading zero");
    }
    while (c->at < c->end && *c->at >= '0' && *c->at <= '9') c->at++;
    if (c->at < c->end && *c->at == '.') {
        c->at++;
        if (c->at >= c->end || *c->at < '0' || *c->at > '9') return trellis_json_fail_ (c, start, "a number with no digit after its '.'");
        while (c->at < c->end && *c->at >= '0' && *c->at <= '9') c->at++;
    }
    if (c->at < c->end && (*c->at == 'e' || *c->at == 'E')) {
        c->at++;
        if (c->at < c->end && (*c->at == '+' || *c->at == '-')) c->at++;
        if (c->at >= c->end || *c->at < '0' || *c->at > '9') return trellis_json_fail_ (c, start, "a number with no digit in its exponent");
        while (c->at < c->end && *c->at >= '0' && *c->at <= '9') c->at++;
    }
    /* strtod needs a NUL-terminated copy; a number longer than this is refused. */
    char copy[512];
    size_t length = (size_t) (c->at - start);
    if (length >= sizeof copy) return trellis_json_fail_ (c, start, "a number of more than 511 characters");
    memcpy (copy, start, length);
    copy[length] = 0;
    errno = 0;
    double value = strtod (copy, NULL);
    if (errno == ERANGE || !isfinite (value)) return trellis_json_fail_ (c, start, "a number beyond what a double holds");
    return 1;
}

static inline int trellis_json_check_value_ (trellis_json_checker_ *c, int depth);

/* An array or an object, `c->at` on its bracket. */
static inline int trellis_json_check_container_ (trellis_json_checker_ *c, int depth)
{
    char close = *c->at == '[' ? ']' : '}';
    int object = close == '}';
    if (depth >= TRELLIS_JSON_MAX_DEPTH) return trellis_json_fail_ (c, c->at, "more than 512 arrays and objects inside each other");
    c->at++;
    trellis_json_space_ (c);
    if (c->at < c->end && *c->at == close) {
        c->at++;
        return 1;
    }
    for (;;) {
        if (object) {
            if (c->at >= c->end || *c->at != '"') return trellis_json_fail_ (c, c->at, "an object member without a quoted name");
            if (!trellis_json_check_string_ (c)) return 0;
            trellis_json_space_ (c);
            if (c->at >= c->end || *c->at != ':') return trellis_json_fail_ (c, c->at, "a member name without ':'");
            c->at++;
        }
        if (!trellis_json_check_value_ (c, depth + 1)) return 0;
        trellis_json_space_ (c);
        if (c->at < c->end && *c->at == ',') {
            c->at++;
            trellis_json_space_ (c);
            continue;
        }
        if (c->at < c->end && *c->at == close) {
            c->at++;
            return 1;
        }
        return trellis_json_fail_ (c, c->at, object ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

static inline int trellis_json_check_value_ (trellis_json_checker_ *c, int depth)
{
    trellis_json_space_ (c);
    if (c->at >= c->end) return trellis_json_fail_ (c, c->at, "a value is missing");
    switch (*c->at) {
    case '{':
    case '[':
        return trellis_json_check_container_ (c, depth);
    case '"':
        return trellis_json_check_string_ (c);
    case 't':
    case 'f':
    case 'n': {
        const char *word = *c->at == 't' ? "true" : *c->at == 'f' ? "false" : "null";
        size_t length = strlen (word);
        if ((size_t) (c->end - c->at) < length || memcmp (c->at, word, length) != 0)
            return trellis_json_fail_ (c, c->at, "an unknown word (true, false and null are the only ones)");
        c->at += length;
        return 1;
    }
    default:
        if (*c->at == '-' || (*c->at >= '0' && *c->at <= '9')) return trellis_json_check_number_ (c);
        return trellis_json_fail_ (c, c->at, "an unexpected character");
    }
}

/**
 * Checks that `text` (`length` bytes, NUL not needed) is one JSON value with only white space
 * around it. On success fills `value` (the value without the white space) and returns 1;
 * otherwise returns 0 and, when `error` is not NULL, says why and where.
 */
static inline int trellis_json_parse (const char *text, size_t length, trellis_json *value, trellis_json_error *error)
{
    trellis_json_checker_ c = { text, text, text + length, error };
    trellis_json_space_ (&c);
    const char *start = c.at;
    if (!trellis_json_check_value_ (&c, 0)) return 0;
    const char *end = c.at;
    trellis_json_space_ (&c);
    if (c.at != c.end) return trellis_json_fail_ (&c, c.at, "text after the value");
    if (value) {
        value->start = start;
        value->end = end;
    }
    return 1;
}

/* ------------------------------------------------------------------------------------------
 * Reading a checked value.
 */

/** What `value` is. */
static inline trellis_json_type trellis_json_type_of (trellis_json value)
{
    switch (*value.start) {
    case '{': return TRELLIS_JSON_OBJECT;
    case '[': return TRELLIS_JSON_ARRAY;
    case '"': return TRELLIS_JSON_STRING;
    case 't': return TRELLIS_JSON_TRUE;
    case 'f': return TRELLIS_JSON_FALSE;
    case 'n': return TRELLIS_JSON_NULL;
    default: return TRELLIS_JSON_NUMBER;
    }
}

/* The end of the checked value starting at `p` (white space before it skipped by the caller). */
static inline const char *trellis_json_skip_ (const char *p, const char *end)
{
    if (*p == '"') {
        for (p++; *p != '"'; p++)
            if (*p == '\\') p++;
        return p + 1;
    }
    if (*p == '{' || *p == '[') {
        int depth = 0;
        for (; p < end; p++) {
            if (*p == '"') {
                p = trellis_json_skip_ (p, end) - 1;
            } else if (*p == '{' || *p == '[') {
                depth++;
            } else if (*p == '}' || *p == ']') {
                if (--depth == 0) return p + 1;
            }
        }
        return end;
    }
    while (p < end && !strchr (",]} \t\r\n", *p)) p++;
    return p;
}

static inline const char *trellis_json_skip_space_ (const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
    return p;
}

/** A walk over `container`'s elements or members; nothing to walk for another value. */
static inline trellis_json_iter trellis_json_iterate (trellis_json container)
{
    trellis_json_iter iter = { container.end, container.end };
    trellis_json_type type = trellis_json_type_of (container);
    if (type == TRELLIS_JSON_ARRAY || type == TRELLIS_JSON_OBJECT) {
        iter.cursor = trellis_json_skip_space_ (container.start + 1, container.end);
        iter.end = container.end - 1;  /* the closing bracket */
    }
    return iter;
}

/**
 * The next element (arrays) or member (objects) of a walk: 1 and `value` (and `key`, the
 * member's name as a string value, when not NULL), or 0 at the end.
 */
static inline int trellis_json_next (trellis_json_iter *iter, trellis_json *key, trellis_json *value)
{
    if (iter->cursor >= iter->end) return 0;
    const char *p = iter->cursor;
    if (*p == '"' && *(trellis_json_skip_space_ (trellis_json_skip_ (p, iter->end), iter->end)) == ':') {
        const char *name_end = trellis_json_skip_ (p, iter->end);
        if (key) {
            key->start = p;
            key->end = name_end;
        }
        p = trellis_json_skip_space_ (trellis_json_skip_space_ (name_end, iter->end) + 1, iter->end);
    }
    const char *value_end = trellis_json_skip_ (p, iter->end);
    if (value) {
        value->start = p;
        value->end = value_end;
    }
    p = trellis_json_skip_space_ (value_end, iter->end);
    if (p < iter->end && *p == ',') p = trellis_json_skip_space_ (p + 1, iter->end);
    iter->cursor = p;
    return 1;
}

/* Decodes the next character of a checked string's body into `out` (UTF-8, 1 to 4 bytes);
 * returns how many bytes it wrote and advances `*p`. */
static inline size_t trellis_json_decode_ (const char **p, char out[4])
{
    const char *s = *p;
    if (*s != '\\') {
        size_t length = trellis_json_utf8_ ((const unsigned char *) s, (const unsigned char *) s + 4);
        memcpy (out, s, length);
        *p = s + length;
        return length;
    }
    char kind = s[1];
    *p = s + 2;
    switch (kind) {
    case 'b': out[0] = '\b'; return 1;
    case 'f': out[0] = '\f'; return 1;
    case 'n': out[0] = '\n'; return 1;
    case 'r': out[0] = '\r'; return 1;
    case 't': out[0] = '\t'; return 1;
    case 'u': break;
    default: out[0] = kind; return 1;
    }
    unsigned long code = (unsigned long) trellis_json_u16_ (s + 2);
    *p = s + 6;
    if (code >= 0xD800 && code <= 0xDBFF) {
        code = 0x10000 + ((code - 0xD800) << 10) + ((unsigned long) trellis_json_u16_ (s + 8) - 0xDC00);
        *p = s + 12;
    }
    if (code < 0x80) {
        out[0] = (char) code;
        return 1;
    }
    if (code < 0x800) {
        out[0] = (char) (0xC0 | (code >> 6));
        out[1] = (char) (0x80 | (code & 0x3F));
        return 2;
    }
    if (code < 0x10000) {
        out[0] = (char) (0xE0 | (code >> 12));
        out[1] = (char) (0x80 | ((code >> 6) & 0x3F));
        out[2] = (char) (0x80 | (code & 0x3F));
        return 3;
    }
    out[0] = (char) (0xF0 | (code >> 18));
    out[1] = (char) (0x80 | ((code >> 12) & 0x3F));
    out[2] = (char) (0x80 | ((code >> 6) & 0x3F));
    out[3] = (char) (0x80 | (code & 0x3F));
    return 4;
}

/**
 * Copies string `value`, decoded, into `buffer` (`size` bytes), NUL-terminated when it fits,
 * as snprintf does: returns the decoded length in bytes (without the NUL), which is >= `size`
 * when it did not fit; (size_t) -1 when `value` is not a string. `buffer` may be NULL with
 * `size` 0 to ask for the length. A decoded string may hold a NUL (from \u0000).
 */
static inline size_t trellis_json_string (trellis_json value, char *buffer, size_t size)
{
    if (trellis_json_type_of (value) != TRELLIS_JSON_STRING) return (size_t) -1;
    const char *p = value.start + 1;
    const char *end = value.end - 1;
    size_t length = 0;
    while (p < end) {
        char bytes[4];
        size_t count = trellis_json_decode_ (&p, bytes);
        if (buffer && length + count < size) memcpy (buffer + length, bytes, count);
        length += count;
    }
    if (buffer && size > 0) buffer[length < size ? length : 0] = 0;
    return length;
}

/** The string `value`, decoded, in memory of its own (free() it); NULL when not a string or out of memory. */
static inline char *trellis_json_string_dup (trellis_json value)
{
    size_t length = trellis_json_string (value, NULL, 0);
    if (length == (size_t) -1) return NULL;
    char *copy = (char *) malloc (length + 1);
    if (copy) trellis_json_string (value, copy, length + 1);
    return copy;
}

/** Whether `value` is a string whose decoded text is `text` (NUL-terminated). */
static inline int trellis_json_string_equals (trellis_json value, const char *text)
{
    if (trellis_json_type_of (value) != TRELLIS_JSON_STRING) return 0;
    const char *p = value.start + 1;
    const char *end = value.end - 1;
    size_t at = 0;
    while (p < end) {
        char bytes[4];
        size_t count = trellis_json_decode_ (&p, bytes);
        for (size_t i = 0; i < count; i++, at++)
            if (text[at] == 0 || text[at] != bytes[i]) return 0;
    }
    return text[at] == 0;
}

/** The member `name` of object `object`: 1 and `value` (the first such member), or 0. */
static inline int trellis_json_get (trellis_json object, const char *name, trellis_json *value)
{
    if (trellis_json_type_of (object) != TRELLIS_JSON_OBJECT) return 0;
    trellis_json_iter iter = trellis_json_iterate (object);
    trellis_json key = object, member = object; /* set by every trellis_json_next of an object; initialised for -Wmaybe-uninitialized */
    while (trellis_json_next (&iter, &key, &member)) {
        if (trellis_json_string_equals (key, name)) {
            if (value) *value = member;
            return 1;
        }
    }
    return 0;
}

/** Number `value` as a double: 1 and `out`, or 0 when it is not a number. */
static inline int trellis_json_number (trellis_json value, double *out)
{
    if (trellis_json_type_of (value) != TRELLIS_JSON_NUMBER) return 0;
    char copy[512];
    size_t length = (size_t) (value.end - value.start);
    memcpy (copy, value.start, length);  /* the checker refused longer numbers */
    copy[length] = 0;
    if (out) *out = strtod (copy, NULL);
    return 1;
}

/** Number `value` as an integer: 1 and `out` when it is a whole number within int64_t, else 0. */
static inline int trellis_json_int (trellis_json value, int64_t *out)
{
    double number;
    /* Range first: the conversion is defined only within int64_t (and needs no libm). */
    if (!trellis_json_number (value, &number) || !(number >= -9223372036854775808.0 && number < 9223372036854775808.0)
        || (double) (int64_t) number != number)
        return 0;
    if (out) *out = (int64_t) number;
    return 1;
}

/** Whether `value` is `true`. */
static inline int trellis_json_is_true (trellis_json value)
{
    return trellis_json_type_of (value) == TRELLIS_JSON_TRUE;
}

/** The member `name` of `object` as a whole number within int64_t, or `fallback` when there is
 * no such member or it is not one: `trellis_json_get_int (data, "page", -1)`. */
static inline int64_t trellis_json_get_int (trellis_json object, const char *name, int64_t fallback)
{
    trellis_json member;
    int64_t value;
    return trellis_json_get (object, name, &member) && trellis_json_int (member, &value) ? value : fallback;
}

/** Copies the string member `name` of `object`, decoded and NUL-terminated, into `buffer`
 * (`size` bytes) and returns 1; returns 0 and leaves `buffer` as it was when there is no such
 * member, it is not a string, or it does not fit: `char label[64] = "Item";` keeps its default. */
static inline int trellis_json_get_string (trellis_json object, const char *name, char *buffer, size_t size)
{
    trellis_json member;
    if (!trellis_json_get (object, name, &member)) return 0;
    size_t length = trellis_json_string (member, NULL, 0);
    if (length == (size_t) -1 || length >= size) return 0;
    trellis_json_string (member, buffer, size);
    return 1;
}

#ifdef __cplusplus
}
#endif

/* The writer, in a file of its own. */
#include "trellis_json_writer.h"

#endif
