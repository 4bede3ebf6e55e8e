/* trellis_process.c: see trellis_process.h. */
#include "trellis_process.h"

#include <sys/prctl.h>

int trellis_process_forbid_dumps (void)
{
    return prctl (PR_SET_DUMPABLE, 0, 0, 0, 0);
}
