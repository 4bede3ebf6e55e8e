/* trellis_http.c: compile-time checks that pin the layout of trellis_http.h, so that a reader
 * of any version can read `abi_version` and `struct_size` first. */
#include <stddef.h>

#include "trellis_http.h"

_Static_assert(offsetof(trellis_http_api, abi_version) == 0, "abi_version must come first");
_Static_assert(offsetof(trellis_http_api, struct_size) == 4, "struct_size must come second");
