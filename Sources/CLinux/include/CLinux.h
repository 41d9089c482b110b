#ifndef CLINUX_H
#define CLINUX_H
// Linux-only declarations that Swift's Glibc module does not expose. Nothing else lives here.
// No _GNU_SOURCE here: Swift's Glibc module is built without it, and defining it in a header that
// Swift imports changes shared structs (fd_set) and breaks the build. CLinux.c defines it.
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <malloc.h>
#include <pthread.h>

// Wrappers, defined in CLinux.c, for what needs _GNU_SOURCE (`accept4`, `struct ucred`) or
// would need C enum casts in Swift. Each returns -1 with errno set on failure, like the call.

/// `epoll_create1(EPOLL_CLOEXEC)`.
int clinux_epoll_create(void);
/// `eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)`.
int clinux_eventfd(void);
/// `accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK)`.
int clinux_accept4(int fd);
/// `getsockopt(fd, SOL_SOCKET, SO_PEERCRED)`, unpacked.
int clinux_peercred(int fd, int32_t *pid, uint32_t *uid, uint32_t *gid);
/// `pthread_timedjoin_np` with a deadline `milliseconds` from now: 0 when joined, else the error
/// (ETIMEDOUT when the thread is still running). Unlike the others, it returns the error number.
int clinux_join_thread(pthread_t thread, int64_t milliseconds);
/// `pthread_setname_np` for the calling thread (`name` at most 15 bytes).
void clinux_set_thread_name(const char *name);
/// `pidfd_open(pid, 0)`: a descriptor that polls readable once the process `pid` has exited
/// (the tests' wait for a child, an event rather than a poll of `waitpid`).
int clinux_pidfd_open(int32_t pid);
#endif
