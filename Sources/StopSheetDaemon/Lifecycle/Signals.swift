#if canImport(Glibc)
import Glibc
#endif

/// A client that hangs up while we write would otherwise kill the process with SIGPIPE. The
/// server also sends with MSG_NOSIGNAL, but other writers (logging to a closed stderr pipe,
/// libraries) would not: ignore it process-wide, once, at start-up.
public func ignoreSIGPIPE() {
    _ = signal(SIGPIPE, SIG_IGN)
}
