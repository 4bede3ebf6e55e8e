/* wire.h: the frames between the shell and a plugin process (GIMP's gimpwire, in small).
 *
 * The same bytes as the shell's PluginWire (Sources/TrellisCore/Plugins/Process/PluginWire.swift):
 *
 *   length  uint32, little-endian: the bytes after it (at most WIRE_MAXIMUM_FRAME)
 *   op      uint8 (wire_op)
 *   number  int64, little-endian
 *   size    uint32, little-endian: the name's bytes
 *   name    UTF-8
 *   json    the rest: JSON text, passed through untouched
 */
#ifndef TRELLIS_HOST_WIRE_H
#define TRELLIS_HOST_WIRE_H

#include <stddef.h>
#include <stdint.h>

/** What a message is (PluginMessage.Op): the shell sends the first five, the process the rest. */
typedef enum wire_op {
    WIRE_GRANTS = 1,
    WIRE_START,
    WIRE_STOP,
    WIRE_EVENT,
    WIRE_SETTINGS,
    WIRE_ENTRY = 16,
    WIRE_REGISTER,
    WIRE_REFUSE,
    WIRE_WATCH,
    WIRE_UNWATCH,
    WIRE_TRIGGER,
    WIRE_NAVIGATE,
    WIRE_REQUEST,
    WIRE_LOG,
    WIRE_STARTED,
    WIRE_STOPPED,
    WIRE_DONE,
} wire_op;

/** The largest frame read or written, as the shell's (PluginWire.maximumMessageBytes). */
#define WIRE_MAXIMUM_FRAME (4 * 1024 * 1024)
/** The bytes of a frame before its name: length, op, number, size. */
#define WIRE_HEADER 17

/** One message read. `name` and `json` are NUL-terminated copies owned by the message. */
typedef struct wire_message {
    wire_op op;
    int64_t number;
    char *name;
    size_t name_length;
    char *json;
    size_t json_length;
} wire_message;

/** Reads frames from one descriptor, on one thread. */
typedef struct wire_reader {
    int fd;
    char *buffer;
    size_t start;
    size_t length;
    size_t capacity;
} wire_reader;

/** Why wire_read() stopped. */
typedef enum wire_status {
    WIRE_MESSAGE,
    WIRE_END,
    WIRE_MALFORMED,
} wire_status;

void wire_reader_init (wire_reader *reader, int fd);

/** The next message into `message` (free it with wire_message_free); at WIRE_MALFORMED,
 * `reason` (static or in `reason_buffer`) says why. */
wire_status wire_read (wire_reader *reader, wire_message *message, char *reason_buffer, size_t reason_size, const char **reason);

void wire_message_free (wire_message *message);

/** Writes one frame whole, from any thread (one frame at a time); 0 when the shell is gone.
 * `json` may be NULL (no JSON text). */
int wire_send (int fd, wire_op op, int64_t number, const char *name, size_t name_length, const char *json, size_t json_length);

/** wire_send with NUL-terminated `name` and `json` (either may be NULL). */
int wire_send_text (int fd, wire_op op, int64_t number, const char *name, const char *json);

#endif
