/* trellis_json_writer.h: the writer of trellis_json.h (include that one: it includes this).
 *
 * A trellis_json_writer puts commas and colons where they belong, escapes strings (control
 * characters as \n or \u00XX; bytes that are not UTF-8 become U+FFFD, so the output is always
 * valid) and writes non-finite numbers as null. See trellis_json.h for an example.
 */
#ifndef TRELLIS_JSON_WRITER_H
#define TRELLIS_JSON_WRITER_H

#include "trellis_json.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Builds one JSON text (see the header's comment). Zero it with trellis_json_writer_init. */
typedef struct trellis_json_writer {
    char *data;
    size_t length;
    size_t capacity;
    /** Set when memory ran out or the calls made no valid text; the text is then NULL. */
    int failed;
    int depth;
    /** Whether a value was written at this depth (a comma comes before the next). */
    unsigned char written[TRELLIS_JSON_MAX_DEPTH + 1];
    /** Whether the container at this depth is an object. */
    unsigned char object[TRELLIS_JSON_MAX_DEPTH + 1];
    /** A key was written: its value comes next, without a comma. */
    int after_key;
} trellis_json_writer;

static inline void trellis_json_writer_init (trellis_json_writer *w)
{
    memset (w, 0, sizeof *w);
}

static inline void trellis_json_writer_free (trellis_json_writer *w)
{
    free (w->data);
    trellis_json_writer_init (w);
}

/** Appends `length` bytes as they are (no checks: the functions below keep the text valid). */
static inline void trellis_json_append_ (trellis_json_writer *w, const char *bytes, size_t length)
{
    if (w->failed) return;
    if (w->length + length + 1 > w->capacity) {
        size_t capacity = w->capacity ? w->capacity : 64;
        while (capacity < w->length + length + 1) capacity *= 2;
        char *data = (char *) realloc (w->data, capacity);
        if (!data) {
            w->failed = 1;
            return;
        }
        w->data = data;
        w->capacity = capacity;
    }
    memcpy (w->data + w->length, bytes, length);
    w->length += length;
    w->data[w->length] = 0;
}

/* Before a value: the comma after the previous one; a value in an object needs its key first. */
static inline void trellis_json_before_value_ (trellis_json_writer *w)
{
    if (w->after_key) {
        w->after_key = 0;
    } else if (w->object[w->depth] && w->depth > 0) {
        w->failed = 1;  /* a value in an object without a key */
    } else if (w->written[w->depth]) {
        if (w->depth == 0) w->failed = 1;  /* a second top-level value */
        trellis_json_append_ (w, ",", 1);
    }
    w->written[w->depth] = 1;
}

/* A string's quotes and escaped bytes. */
static inline void trellis_json_quote_ (trellis_json_writer *w, const char *text, size_t length)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *p = (const unsigned char *) text;
    const unsigned char *end = p + length;
    trellis_json_append_ (w, "\"", 1);
    while (p < end) {
        const unsigned char *run = p;
        /* Plain ASCII and well-formed UTF-8 go out in runs. */
        for (size_t n; p < end && *p != '"' && *p != '\\' && *p >= 0x20 && (n = trellis_json_utf8_ (p, end)) > 0; p += n) {}
        trellis_json_append_ (w, (const char *) run, (size_t) (p - run));
        if (p >= end) break;
        char escape[7] = { '\\', 0 };
        if (*p == '"' || *p == '\\') {
            escape[1] = (char) *p;
            trellis_json_append_ (w, escape, 2);
        } else if (*p < 0x20) {
            const char *named = *p == '\n' ? "n" : *p == '\t' ? "t" : *p == '\r' ? "r" : *p == '\b' ? "b" : *p == '\f' ? "f" : NULL;
            if (named) {
                escape[1] = *named;
                trellis_json_append_ (w, escape, 2);
            } else {
                memcpy (escape + 1, "u00", 3);
                escape[4] = hex[*p >> 4];
                escape[5] = hex[*p & 0xF];
                trellis_json_append_ (w, escape, 6);
            }
        } else {
            trellis_json_append_ (w, "\\ufffd", 6);  /* a byte that is not UTF-8 */
        }
        p++;
    }
    trellis_json_append_ (w, "\"", 1);
}

static inline void trellis_json_begin_ (trellis_json_writer *w, char bracket, int object)
{
    trellis_json_before_value_ (w);
    if (w->depth >= TRELLIS_JSON_MAX_DEPTH) {
        w->failed = 1;
        return;
    }
    trellis_json_append_ (w, &bracket, 1);
    w->depth++;
    w->written[w->depth] = 0;
    w->object[w->depth] = (unsigned char) object;
}

static inline void trellis_json_end_ (trellis_json_writer *w, char bracket, int object)
{
    if (w->depth == 0 || w->object[w->depth] != object || w->after_key) {
        w->failed = 1;
        return;
    }
    w->depth--;
    trellis_json_append_ (w, &bracket, 1);
}

static inline void trellis_json_begin_object (trellis_json_writer *w) { trellis_json_begin_ (w, '{', 1); }
static inline void trellis_json_end_object (trellis_json_writer *w) { trellis_json_end_ (w, '}', 1); }
static inline void trellis_json_begin_array (trellis_json_writer *w) { trellis_json_begin_ (w, '[', 0); }
static inline void trellis_json_end_array (trellis_json_writer *w) { trellis_json_end_ (w, ']', 0); }

/** The name of the next member of the object being written, `length` bytes (which may hold NULs). */
static inline void trellis_json_key_n (trellis_json_writer *w, const char *name, size_t length)
{
    if (!w->object[w->depth] || w->depth == 0 || w->after_key) {
        w->failed = 1;
        return;
    }
    if (w->written[w->depth]) trellis_json_append_ (w, ",", 1);
    w->written[w->depth] = 1;
    trellis_json_quote_ (w, name, length);
    trellis_json_append_ (w, ":", 1);
    w->after_key = 1;
}

/** The name of the next member of the object being written. */
static inline void trellis_json_key (trellis_json_writer *w, const char *name)
{
    trellis_json_key_n (w, name, strlen (name));
}

/** A string value of `length` bytes (which may hold NULs). */
static inline void trellis_json_string_n (trellis_json_writer *w, const char *text, size_t length)
{
    trellis_json_before_value_ (w);
    trellis_json_quote_ (w, text, length);
}

/** A string value; NULL writes null. */
static inline void trellis_json_string_value (trellis_json_writer *w, const char *text)
{
    if (!text) {
        trellis_json_before_value_ (w);
        trellis_json_append_ (w, "null", 4);
        return;
    }
    trellis_json_string_n (w, text, strlen (text));
}

/** A number, in the fewest digits that read back as the same double; NaN and the infinities
 * are written as null (JSON has no such numbers). */
static inline void trellis_json_double (trellis_json_writer *w, double number)
{
    char text[32] = "null";
    if (isfinite (number)) {
        snprintf (text, sizeof text, "%.15g", number);
        if (strtod (text, NULL) != number) snprintf (text, sizeof text, "%.17g", number);
    }
    trellis_json_before_value_ (w);
    trellis_json_append_ (w, text, strlen (text));
}

/** A whole number. */
static inline void trellis_json_int_value (trellis_json_writer *w, int64_t number)
{
    char text[24];
    int length = snprintf (text, sizeof text, "%" PRId64, number);
    trellis_json_before_value_ (w);
    trellis_json_append_ (w, text, (size_t) length);
}

/** true or false. */
static inline void trellis_json_bool (trellis_json_writer *w, int flag)
{
    trellis_json_before_value_ (w);
    trellis_json_append_ (w, flag ? "true" : "false", flag ? 4 : 5);
}

/** null. */
static inline void trellis_json_null (trellis_json_writer *w)
{
    trellis_json_before_value_ (w);
    trellis_json_append_ (w, "null", 4);
}

/** A member of the object being written whose value is a whole number: trellis_json_key, then
 * trellis_json_int_value. */
static inline void trellis_json_member_int (trellis_json_writer *w, const char *name, int64_t number)
{
    trellis_json_key (w, name);
    trellis_json_int_value (w, number);
}

/** A member of the object being written whose value is a string (NULL: null). */
static inline void trellis_json_member_string (trellis_json_writer *w, const char *name, const char *text)
{
    trellis_json_key (w, name);
    trellis_json_string_value (w, text);
}

/** A value taken from a checked text as it is (an event's data passed on, say). */
static inline void trellis_json_value (trellis_json_writer *w, trellis_json value)
{
    trellis_json_before_value_ (w);
    trellis_json_append_ (w, value.start, (size_t) (value.end - value.start));
}

/** The text written, NUL-terminated and owned by the writer; NULL when it is not one whole value. */
static inline const char *trellis_json_writer_text (const trellis_json_writer *w)
{
    if (w->failed || w->depth != 0 || w->after_key || !w->written[0]) return NULL;
    return w->data;
}

#ifdef __cplusplus
}
#endif

#endif
