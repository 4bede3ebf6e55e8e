/* trellis_plugin.c: compile-time checks that pin the ABI layout of trellis_plugin.h.
 *
 * The negotiation rules rely on `abi_version` and `struct_size` being the first two members
 * of every versioned struct, so that any host can read them from any plugin and vice versa.
 */
#include "trellis_plugin.h"

_Static_assert(offsetof(trellis_host_api, abi_version) == 0, "abi_version must come first");
_Static_assert(offsetof(trellis_host_api, struct_size) == 4, "struct_size must come second");
_Static_assert(offsetof(trellis_plugin_info, abi_version) == 0, "abi_version must come first");
_Static_assert(offsetof(trellis_plugin_info, struct_size) == 4, "struct_size must come second");
_Static_assert(offsetof(trellis_service_definition, struct_size) == 0, "struct_size must come first");
_Static_assert(sizeof(trellis_watch_id) == 8, "watch ids are 64-bit");
