/*
 * The sandbox ("pause") process of the local test cluster: it holds a pod's
 * namespaces and waits for a signal. Written here so that no image is pulled.
 * It reaps children (it is PID 1 of the pod when the PID namespace is shared)
 * and exits on SIGINT or SIGTERM.
 */
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static void on_stop(int sig) { (void)sig; _exit(0); }

static void on_child(int sig) {
  (void)sig;
  while (waitpid(-1, NULL, WNOHANG) > 0) {
  }
}

int main(void) {
  struct sigaction stop = {.sa_handler = on_stop};
  struct sigaction child = {.sa_handler = on_child, .sa_flags = SA_NOCLDSTOP};
  sigaction(SIGINT, &stop, NULL);
  sigaction(SIGTERM, &stop, NULL);
  sigaction(SIGCHLD, &child, NULL);
  for (;;) {
    pause();
  }
  return 0;
}
