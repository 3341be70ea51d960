/*===- measure.c - Runs one command and reports its own CPU and peak RSS ---===
 *
 * bench/run.py times ptxlint and ptxas through this launcher rather than
 * from Python: Linux counts a process's peak RSS from its fork, so a child
 * forked from the Python interpreter (which may have read the module) starts
 * with the interpreter's pages, and its CPU time includes the forked
 * interpreter's work before exec. This program is small and does nothing
 * between fork and exec, so what wait4() reports is the command's own.
 *
 * usage: ptxlint-measure [--limit-kb N] [--timeout S] -- CMD [ARG...]
 * Prints "wall_s cpu_s peak_kb status" on stdout (status: the exit code,
 * 128 + the signal, or 124 on timeout); the command's stdout and stderr go
 * to /dev/null. Exit status 2 on a usage error or when CMD cannot be run.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return (double)T.tv_sec + (double)T.tv_nsec * 1e-9;
}

static double seconds(struct timeval T) {
  return (double)T.tv_sec + (double)T.tv_usec * 1e-6;
}

int main(int argc, char **argv) {
  long LimitKb = 0;
  double Timeout = 0;
  int K = 1;
  for (; K < argc && strcmp(argv[K], "--") != 0; ++K) {
    if (strcmp(argv[K], "--limit-kb") == 0 && K + 1 < argc)
      LimitKb = atol(argv[++K]);
    else if (strcmp(argv[K], "--timeout") == 0 && K + 1 < argc)
      Timeout = atof(argv[++K]);
    else {
      fprintf(stderr, "ptxlint-measure: unknown option '%s'\n", argv[K]);
      return 2;
    }
  }
  if (K + 1 >= argc) {
    fprintf(stderr, "usage: ptxlint-measure [--limit-kb N] [--timeout S] -- CMD [ARG...]\n");
    return 2;
  }
  char **Cmd = argv + K + 1;
  /* The child writes errno here if exec fails; the pipe closes on exec. */
  int Exec[2];
  if (pipe2(Exec, O_CLOEXEC) != 0) {
    perror("ptxlint-measure: pipe");
    return 2;
  }
  double T0 = now();
  pid_t Pid = fork();
  if (Pid < 0) {
    perror("ptxlint-measure: fork");
    return 2;
  }
  if (Pid == 0) {
    close(Exec[0]);
    int Null = open("/dev/null", O_WRONLY);
    if (Null >= 0) {
      dup2(Null, 1);
      dup2(Null, 2);
    }
    if (LimitKb > 0) {
      struct rlimit L = {(rlim_t)LimitKb * 1024, (rlim_t)LimitKb * 1024};
      setrlimit(RLIMIT_AS, &L);
    }
    execvp(Cmd[0], Cmd);
    int Err = errno;
    if (write(Exec[1], &Err, sizeof Err) < 0)
      _exit(127);
    _exit(127);
  }
  close(Exec[1]);
  int Err = 0;
  if (read(Exec[0], &Err, sizeof Err) == (ssize_t)sizeof Err) {
    waitpid(Pid, NULL, 0);
    fprintf(stderr, "ptxlint-measure: cannot run '%s': %s\n", Cmd[0], strerror(Err));
    return 2;
  }
  close(Exec[0]);
  int Status = 0, TimedOut = 0;
  struct rusage Ru;
  for (;;) {
    pid_t Got = wait4(Pid, &Status, Timeout > 0 ? WNOHANG : 0, &Ru);
    if (Got == Pid)
      break;
    if (Got < 0) {
      perror("ptxlint-measure: wait4");
      return 2;
    }
    if (now() - T0 > Timeout && !TimedOut) {
      kill(Pid, SIGKILL);
      TimedOut = 1;
    }
    usleep(2000);
  }
  double Wall = now() - T0;
  int Code = TimedOut ? 124
             : WIFEXITED(Status) ? WEXITSTATUS(Status)
                                 : 128 + WTERMSIG(Status);
  printf("%.6f %.6f %ld %d\n", Wall, seconds(Ru.ru_utime) + seconds(Ru.ru_stime),
         Ru.ru_maxrss, Code);
  return 0;
}
