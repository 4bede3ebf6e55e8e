/* text.c: see text.h. */
#include "text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trellis_json.h"

void text_init (text_buffer *text)
{
    text->length = 0;
    text->capacity = 64;
    text->data = malloc (text->capacity);
    if (text->data) text->data[0] = 0;
}

void text_free (text_buffer *text)
{
    free (text->data);
    text->data = NULL;
}

void text_append (text_buffer *text, const char *bytes, size_t length)
{
    if (!text->data) return;
    if (text->length + length + 1 > text->capacity) {
        size_t capacity = text->capacity;
        while (capacity < text->length + length + 1) capacity *= 2;
        char *data = realloc (text->data, capacity);
        if (!data) {
            text_free (text);
            return;
        }
        text->data = data;
        text->capacity = capacity;
    }
    memcpy (text->data + text->length, bytes, length);
    text->length += length;
    text->data[text->length] = 0;
}

void text_printf (text_buffer *text, const char *format, ...)
{
    va_list arguments;
    va_start (arguments, format);
    char small[256];
    int length = vsnprintf (small, sizeof small, format, arguments);
    va_end (arguments);
    if (length < 0) return;
    if ((size_t) length < sizeof small) {
        text_append (text, small, (size_t) length);
        return;
    }
    char *large = malloc ((size_t) length + 1);
    if (!large) {
        text_free (text);
        return;
    }
    va_start (arguments, format);
    vsnprintf (large, (size_t) length + 1, format, arguments);
    va_end (arguments);
    text_append (text, large, (size_t) length);
    free (large);
}

int text_is_utf8 (const char *bytes, size_t length)
{
    const unsigned char *p = (const unsigned char *) bytes, *end = p + length;
    while (p < end) {
        size_t step = trellis_json_utf8_ (p, end);
        if (step == 0) return 0;
        p += step;
    }
    return 1;
}

char *text_quoted (const char *name, size_t limit)
{
    text_buffer out;
    text_init (&out);
    text_append (&out, "\"", 1);
    const unsigned char *p = (const unsigned char *) name, *end = p + strlen (name);
    size_t characters = 0;
    while (p < end && characters < limit) {
        size_t step = trellis_json_utf8_ (p, end);
        if (step == 0) {
            text_append (&out, "\\u{FFFD}", 8);
            step = 1;
        } else if (*p == '"' || *p == '\\' || *p == '\'') {
            char escape[2] = { '\\', (char) *p };
            text_append (&out, escape, 2);
        } else if (*p == '\n' || *p == '\t' || *p == '\r' || *p == 0) {
            text_append (&out, *p == '\n' ? "\\n" : *p == '\t' ? "\\t" : *p == '\r' ? "\\r" : "\\0", 2);
        } else if (*p < 0x20 || *p == 0x7F || (p[0] == 0xC2 && p[1] < 0xA0)) {
            unsigned value = step == 1 ? *p : p[1];
            text_printf (&out, "\\u{%X}", value);
        } else {
            text_append (&out, (const char *) p, step);
        }
        p += step;
        characters++;
    }
    text_append (&out, "\"", 1);
    if (p < end) text_append (&out, "\xE2\x80\xA6", 3);  /* … */
    return out.data;
}

char *text_repaired (const char *bytes, size_t length, size_t limit)
{
    text_buffer out;
    text_init (&out);
    const unsigned char *p = (const unsigned char *) bytes, *end = p + length;
    while (p < end) {
        size_t step = trellis_json_utf8_ (p, end);
        size_t written = step ? step : 3;
        if (out.data && out.length + written > limit) {
            text_append (&out, "\xE2\x80\xA6", 3);
            break;
        }
        if (step) text_append (&out, (const char *) p, step);
        else text_append (&out, "\xEF\xBF\xBD", 3);
        p += step ? step : 1;
    }
    return out.data;
}
