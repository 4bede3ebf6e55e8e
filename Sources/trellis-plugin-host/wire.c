/* wire.c: reading and writing the frames of wire.h. */
#include "wire.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "trellis_json.h"

static pthread_mutex_t writing = PTHREAD_MUTEX_INITIALIZER;

static void put_le (unsigned char *at, uint64_t value, int bytes)
{
    for (int i = 0; i < bytes; i++) at[i] = (unsigned char) (value >> (8 * i));
}

static uint64_t get_le (const unsigned char *at, int bytes)
{
    uint64_t value = 0;
    for (int i = 0; i < bytes; i++) value |= (uint64_t) at[i] << (8 * i);
    return value;
}

int wire_send (int fd, wire_op op, int64_t number, const char *name, size_t name_length, const char *json, size_t json_length)
{
    unsigned char header[WIRE_HEADER];
    put_le (header, WIRE_HEADER - 4 + name_length + json_length, 4);
    header[4] = (unsigned char) op;
    put_le (header + 5, (uint64_t) number, 8);
    put_le (header + 13, name_length, 4);
    struct iovec parts[3] = {
        { header, sizeof header },
        { (void *) name, name ? name_length : 0 },
        { (void *) json, json ? json_length : 0 },
    };
    int sent = 1;
    pthread_mutex_lock (&writing);
    struct msghdr message = { .msg_iov = parts, .msg_iovlen = 3 };
    while (message.msg_iovlen > 0) {
        /* MSG_NOSIGNAL: a shell that is gone makes this fail, never raises SIGPIPE. */
        ssize_t written = sendmsg (fd, &message, MSG_NOSIGNAL);
        if (written < 0) {
            if (errno == EINTR) continue;
            sent = 0;
            break;
        }
        while (message.msg_iovlen > 0 && (size_t) written >= message.msg_iov->iov_len) {
            written -= (ssize_t) message.msg_iov->iov_len;
            message.msg_iov++;
            message.msg_iovlen--;
        }
        if (message.msg_iovlen > 0) {
            message.msg_iov->iov_base = (char *) message.msg_iov->iov_base + written;
            message.msg_iov->iov_len -= (size_t) written;
        }
    }
    pthread_mutex_unlock (&writing);
    return sent;
}

int wire_send_text (int fd, wire_op op, int64_t number, const char *name, const char *json)
{
    return wire_send (fd, op, number, name, name ? strlen (name) : 0, json, json ? strlen (json) : 0);
}

void wire_reader_init (wire_reader *reader, int fd)
{
    memset (reader, 0, sizeof *reader);
    reader->fd = fd;
}

void wire_message_free (wire_message *message)
{
    free (message->name);
    free (message->json);
    memset (message, 0, sizeof *message);
}

/* The frame body at `body` (`length` bytes after the length field) as a message. */
static wire_status decode (const unsigned char *body, size_t length, wire_message *message, char *reason_buffer,
                           size_t reason_size, const char **reason)
{
    if (length < WIRE_HEADER - 4) {
        snprintf (reason_buffer, reason_size, "a frame of %zu bytes, shorter than its header", length);
        *reason = reason_buffer;
        return WIRE_MALFORMED;
    }
    if (!((body[0] >= WIRE_GRANTS && body[0] <= WIRE_SETTINGS) || (body[0] >= WIRE_ENTRY && body[0] <= WIRE_DONE))) {
        snprintf (reason_buffer, reason_size, "a frame of unknown kind %u", body[0]);
        *reason = reason_buffer;
        return WIRE_MALFORMED;
    }
    size_t name_length = (size_t) get_le (body + 9, 4);
    if (name_length > length - (WIRE_HEADER - 4)) {
        snprintf (reason_buffer, reason_size, "a name of %zu bytes in a frame of %zu", name_length, length);
        *reason = reason_buffer;
        return WIRE_MALFORMED;
    }
    const char *name = (const char *) body + WIRE_HEADER - 4;
    for (size_t at = 0, step; at < name_length; at += step) {
        step = trellis_json_utf8_ ((const unsigned char *) name + at, (const unsigned char *) name + name_length);
        if (step == 0) {
            *reason = "a name that is not UTF-8";
            return WIRE_MALFORMED;
        }
    }
    size_t json_length = length - (WIRE_HEADER - 4) - name_length;
    message->op = (wire_op) body[0];
    message->number = (int64_t) get_le (body + 1, 8);
    message->name = malloc (name_length + 1);
    message->json = malloc (json_length + 1);
    if (!message->name || !message->json) {
        wire_message_free (message);
        *reason = "out of memory";
        return WIRE_MALFORMED;
    }
    memcpy (message->name, name, name_length);
    message->name[name_length] = 0;
    message->name_length = name_length;
    memcpy (message->json, name + name_length, json_length);
    message->json[json_length] = 0;
    message->json_length = json_length;
    return WIRE_MESSAGE;
}

wire_status wire_read (wire_reader *reader, wire_message *message, char *reason_buffer, size_t reason_size, const char **reason)
{
    memset (message, 0, sizeof *message);
    for (;;) {
        size_t available = reader->length - reader->start;
        const unsigned char *at = (const unsigned char *) reader->buffer + reader->start;
        if (available >= 4) {
            size_t length = (size_t) get_le (at, 4);
            if (length > WIRE_MAXIMUM_FRAME) {
                snprintf (reason_buffer, reason_size, "a frame of %zu bytes, over the limit of %d", length, WIRE_MAXIMUM_FRAME);
                *reason = reason_buffer;
                return WIRE_MALFORMED;
            }
            if (available >= 4 + length) {
                reader->start += 4 + length;
                return decode (at + 4, length, message, reason_buffer, reason_size, reason);
            }
        }
        if (reader->start > 0) {
            memmove (reader->buffer, reader->buffer + reader->start, available);
            reader->length = available;
            reader->start = 0;
        }
        if (reader->capacity - reader->length < 64 * 1024) {
            size_t capacity = reader->capacity ? reader->capacity * 2 : 128 * 1024;
            char *buffer = realloc (reader->buffer, capacity);
            if (!buffer) {
                *reason = "out of memory";
                return WIRE_MALFORMED;
            }
            reader->buffer = buffer;
            reader->capacity = capacity;
        }
        ssize_t count = read (reader->fd, reader->buffer + reader->length, reader->capacity - reader->length);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) {
            if (reader->length == 0) return WIRE_END;
            snprintf (reason_buffer, reason_size, "a frame cut short by the end of the stream (%zu bytes)", reader->length);
            *reason = reason_buffer;
            return WIRE_MALFORMED;
        }
        reader->length += (size_t) count;
    }
}
