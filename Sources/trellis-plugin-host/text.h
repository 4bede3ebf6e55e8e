/* text.h: growing strings and text made safe to show, for the plugin host's messages. */
#ifndef TRELLIS_HOST_TEXT_H
#define TRELLIS_HOST_TEXT_H

#include <stddef.h>

/** A NUL-terminated string that grows; `data` is NULL once memory ran out. */
typedef struct text_buffer {
    char *data;
    size_t length;
    size_t capacity;
} text_buffer;

void text_init (text_buffer *text);
void text_free (text_buffer *text);
/** Appends printf-formatted text. */
void text_printf (text_buffer *text, const char *format, ...) __attribute__ ((format (printf, 2, 3)));
/** Appends `length` bytes. */
void text_append (text_buffer *text, const char *bytes, size_t length);

/** `name` in quotes with `"`, `\`, `'` and control characters escaped as Swift's
 * debugDescription writes them, cut after `limit` characters with "…" after the quote
 * (malloc'd; NULL when out of memory). */
char *text_quoted (const char *name, size_t limit);

/** Whether the `length` bytes at `bytes` are well-formed UTF-8. */
int text_is_utf8 (const char *bytes, size_t length);

/** A copy of at most `limit` bytes of `bytes` with every byte that is not UTF-8 replaced by
 * U+FFFD, cut at a character's boundary, with "…" when cut (malloc'd). */
char *text_repaired (const char *bytes, size_t length, size_t limit);

#endif
