#ifndef CSYSTEMD_SHIM_H
#define CSYSTEMD_SHIM_H
// libsystemd's daemon and journal APIs. The variadic ones (sd_journal_send, sd_notifyf) cannot be
// called from Swift; the daemon uses sd_notify and sd_journal_sendv instead.
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
#include <sys/uio.h>
#include <time.h>

// MONOTONIC_USEC= must be CLOCK_MONOTONIC in microseconds, the clock systemd compares it against.
static inline unsigned long long csystemd_monotonic_usec(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) return 0;
    return (unsigned long long)ts.tv_sec * 1000000ULL + (unsigned long long)ts.tv_nsec / 1000ULL;
}

// SD_LISTEN_FDS_START is a macro with a cast Swift may not import as a constant.
static inline int csystemd_listen_fds_start(void) { return SD_LISTEN_FDS_START; }

#endif
