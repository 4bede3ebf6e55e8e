/* trellis-memory.c */
#include <malloc.h>
#include "trellis-memory.h"

gsize
trellis_heap_in_use (void)
{
  malloc_trim (0);
  struct mallinfo2 info = mallinfo2 ();
  return info.uordblks + info.hblkhd;
}
