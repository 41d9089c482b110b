#ifndef CSYSTEMD_SHIM_H
#define CSYSTEMD_SHIM_H
// libsystemd's daemon and journal APIs. The variadic ones (sd_journal_send, sd_notifyf) cannot be
// called from Swift; the daemon uses sd_journal_sendv instead (and its own non-blocking notify
// socket, see ServiceNotifier).
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
#include <sys/uio.h>

// SD_LISTEN_FDS_START is a macro with a cast Swift may not import as a constant.
static inline int csystemd_listen_fds_start(void) { return SD_LISTEN_FDS_START; }

#endif
