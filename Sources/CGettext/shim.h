#ifndef TRELLIS_CGETTEXT_SHIM_H
#define TRELLIS_CGETTEXT_SHIM_H
/* GNU gettext as glibc provides it (Swift's Glibc module leaves <libintl.h> out). No library
 * to link: the functions are part of libc. */
#include <libintl.h>
#include <locale.h>
#endif
