/* The floor under plugin-ipc-roundtrip: one byte from this process to a child over a
 * socketpair and back, 150 times, each timed from before the write to after the read; prints
 * the median in microseconds. Two processes, each woken once per round trip, doing nothing
 * else: what any plugin process's round trip costs on this machine before a byte of work. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double now (void) {
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

static int compare (const void *a, const void *b) {
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

int main (void) {
  enum { rounds = 150 };
  int pair[2];
  if (socketpair (AF_UNIX, SOCK_STREAM, 0, pair) != 0) { perror ("socketpair"); return 1; }
  pid_t child = fork ();
  if (child < 0) { perror ("fork"); return 1; }
  if (child == 0) {
    char byte;
    close (pair[0]);
    while (read (pair[1], &byte, 1) == 1 && write (pair[1], &byte, 1) == 1) {}
    _exit (0);
  }
  close (pair[1]);
  double microseconds[rounds];
  char byte = 'x';
  for (int i = 0; i < rounds; i++) {
    double start = now ();
    if (write (pair[0], &byte, 1) != 1 || read (pair[0], &byte, 1) != 1) { perror ("ping"); return 1; }
    microseconds[i] = (now () - start) * 1e6;
  }
  close (pair[0]);
  qsort (microseconds, rounds, sizeof microseconds[0], compare);
  printf ("%.3f\n", microseconds[rounds / 2]);
  return 0;
}
