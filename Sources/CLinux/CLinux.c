#define _GNU_SOURCE
#include "CLinux.h"
#include <time.h>
#include <sys/syscall.h>
#include <unistd.h>

int clinux_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int clinux_eventfd(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }

int clinux_accept4(int fd) { return accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK); }

int clinux_peercred(int fd, int32_t *pid, uint32_t *uid, uint32_t *gid) {
    struct ucred cred;
    socklen_t length = sizeof(cred);
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &length) != 0) return -1;
    *pid = cred.pid;
    *uid = cred.uid;
    *gid = cred.gid;
    return 0;
}

int clinux_join_thread(pthread_t thread, int64_t milliseconds) {
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += milliseconds / 1000;
    deadline.tv_nsec += (milliseconds % 1000) * 1000000;
    if (deadline.tv_nsec >= 1000000000) {
        deadline.tv_sec += 1;
        deadline.tv_nsec -= 1000000000;
    }
    return pthread_timedjoin_np(thread, NULL, &deadline);
}

void clinux_set_thread_name(const char *name) { pthread_setname_np(pthread_self(), name); }

int clinux_pidfd_open(int32_t pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }
