#ifndef CLINUX_H
#define CLINUX_H
// Linux-only declarations that Swift's Glibc module does not expose. Nothing else lives here.
// No _GNU_SOURCE in this header: defining it here makes Glibc's types clash with SwiftGlibc's;
// functions that need it get a wrapper defined in CLinux.c (as swift-nio's CNIOLinux does).
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#endif
