/*
 * The race adversary: swaps two names atomically with
 * renameat2(RENAME_EXCHANGE), the way an attacker with write access to the
 * workspace would swap a folder for a link to an outside folder.
 *
 *   swapper once A B        one exchange; exit 0, or 1 with the errno name on stderr
 *   swapper loop A B [MAX [EVENTS]]
 *                           exchange as fast as possible (at most MAX times, 0: no
 *                           limit), saying what it does on stdout or, if given, on
 *                           the FIFO or file EVENTS
 *   swapper serve CMD ACK   read "A\tB\n" lines from the FIFO CMD, exchange,
 *                           answer "0\n" or "<errno>\n" on the FIFO ACK
 *   swapper mkfifo PATH...  create FIFOs (mode 0600) for serve mode
 *
 * Loop mode starts paused and speaks one line per event:
 *   "paused <swaps> <failures>"   after SIGUSR1 (and at start); the swap count is
 *                                 made even first, so the pair is in its original
 *                                 orientation unless something else moved it
 *   "stopped <swaps> <failures>"  after SIGTERM/SIGINT or MAX swaps, count made even
 * SIGUSR2 resumes. A failed exchange (ENOENT while a tool has removed one of
 * the names, …) is counted and the loop goes on; only successful exchanges
 * count towards the parity.
 *
 * Compiled at test time by swapper.ts with `cc`.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

static volatile sig_atomic_t want_pause = 0;
static volatile sig_atomic_t want_resume = 0;
static volatile sig_atomic_t want_stop = 0;

static void on_pause(int signo) { (void)signo; want_pause = 1; }
static void on_resume(int signo) { (void)signo; want_resume = 1; }
static void on_stop(int signo) { (void)signo; want_stop = 1; }
static void on_alarm(int signo) { (void)signo; alarm(1); }

/* Through syscall(2): older glibc has no renameat2 wrapper. */
static int exchange(const char *a, const char *b) {
  return (int)syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE);
}

static void on_signal(int signo, void (*handler)(int)) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask);
  sigaction(signo, &action, NULL);
}

/* Makes the count even with one more exchange, retrying a few times. */
static void settle(const char *a, const char *b, unsigned long long *swaps, unsigned long long *failures) {
  for (int tries = 0; (*swaps & 1ULL) != 0 && tries < 1000; tries++) {
    if (exchange(a, b) == 0) (*swaps)++;
    else (*failures)++;
  }
}

static int loop(const char *a, const char *b, unsigned long long max) {
  unsigned long long swaps = 0, failures = 0, turns = 0;
  /* A loop must not outlive the test that started it: it ends when reparented. */
  const pid_t parent = getppid();
  sigset_t blocked, waiting;
  sigemptyset(&blocked);
  sigaddset(&blocked, SIGUSR2);
  sigaddset(&blocked, SIGTERM);
  sigaddset(&blocked, SIGINT);
  on_signal(SIGUSR1, on_pause);
  on_signal(SIGUSR2, on_resume);
  on_signal(SIGTERM, on_stop);
  on_signal(SIGINT, on_stop);
  on_signal(SIGALRM, on_alarm);
  want_pause = 1; /* start paused: the caller resumes when its tool call begins */
  for (;;) {
    if (want_stop || (max != 0 && swaps >= max)) break;
    if ((++turns & 4095) == 0 && getppid() != parent) break;
    if (want_pause) {
      settle(a, b, &swaps, &failures);
      /* Block the wake-up signals before answering, so one sent right after the answer is not lost. */
      sigprocmask(SIG_BLOCK, &blocked, &waiting);
      want_pause = 0;
      want_resume = 0;
      printf("paused %llu %llu\n", swaps, failures);
      fflush(stdout);
      sigdelset(&waiting, SIGUSR2);
      sigdelset(&waiting, SIGTERM);
      sigdelset(&waiting, SIGINT);
      alarm(1); /* wakes the wait once a second to check the parent */
      while (!want_resume && !want_stop && getppid() == parent) sigsuspend(&waiting);
      alarm(0);
      sigprocmask(SIG_UNBLOCK, &blocked, NULL);
      continue;
    }
    if (exchange(a, b) == 0) swaps++;
    else if (errno == EINVAL || errno == ENOSYS || errno == EXDEV) {
      fprintf(stderr, "swapper: renameat2(RENAME_EXCHANGE) unsupported: %s\n", strerror(errno));
      return 2;
    } else failures++;
  }
  settle(a, b, &swaps, &failures);
  printf("stopped %llu %llu\n", swaps, failures);
  fflush(stdout);
  return 0;
}

static int serve(const char *command_path, const char *ack_path) {
  FILE *commands = fopen(command_path, "r");
  if (commands == NULL) { perror("swapper: open command FIFO"); return 2; }
  FILE *acks = fopen(ack_path, "w");
  if (acks == NULL) { perror("swapper: open ack FIFO"); return 2; }
  char *line = NULL;
  size_t capacity = 0;
  ssize_t length;
  while ((length = getline(&line, &capacity, commands)) > 0) {
    if (line[length - 1] == '\n') line[length - 1] = '\0';
    char *tab = strchr(line, '\t');
    int result = EINVAL;
    if (tab != NULL) {
      *tab = '\0';
      result = exchange(line, tab + 1) == 0 ? 0 : errno;
    }
    fprintf(acks, "%d\n", result);
    fflush(acks);
  }
  free(line);
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 4 && strcmp(argv[1], "once") == 0) {
    if (exchange(argv[2], argv[3]) == 0) return 0;
    fprintf(stderr, "swapper: %s\n", strerror(errno));
    return 1;
  }
  if (argc >= 4 && argc <= 6 && strcmp(argv[1], "loop") == 0) {
    if (argc == 6 && freopen(argv[5], "w", stdout) == NULL) { perror("swapper: open EVENTS"); return 2; }
    return loop(argv[2], argv[3], argc >= 5 ? strtoull(argv[4], NULL, 10) : 0);
  }
  if (argc == 4 && strcmp(argv[1], "serve") == 0) return serve(argv[2], argv[3]);
  if (argc >= 3 && strcmp(argv[1], "mkfifo") == 0) {
    for (int i = 2; i < argc; i++) {
      if (mkfifo(argv[i], 0600) != 0) { perror("swapper: mkfifo"); return 1; }
    }
    return 0;
  }
  fprintf(stderr, "usage: swapper once A B | loop A B [MAX [EVENTS]] | serve CMD_FIFO ACK_FIFO | mkfifo PATH...\n");
  return 64;
}
