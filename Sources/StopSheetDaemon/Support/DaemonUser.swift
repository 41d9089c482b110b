import Glibc

/// The daemon's own user, for every rule that names it (the refresh privilege, the reserved
/// connection slots, the runtime directory's owner): the effective uid, the one the kernel
/// checks the daemon's files and reports in a peer's credentials with. Read once.
enum DaemonUser {
    static let uid: UInt32 = geteuid()
}
