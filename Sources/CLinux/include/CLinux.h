#ifndef CLINUX_H
#define CLINUX_H
// Linux-only declarations that Swift's Glibc module does not expose. Nothing else lives here.
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#endif
