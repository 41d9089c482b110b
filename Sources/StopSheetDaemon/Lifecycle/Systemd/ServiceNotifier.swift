import CSystemd
import Glibc

/// The daemon's side of systemd's notify protocol (`Type=notify`): readiness, status line,
/// watchdog keep-alives, reload and stop announcements.
///
/// Every method is a no-op when `NOTIFY_SOCKET` was unset at start-up, so the daemon runs the
/// same from a terminal. Calls are safe from any thread.
///
/// Datagrams go out on one non-blocking socket connected to `NOTIFY_SOCKET` rather than through
/// `sd_notify`, whose send blocks while the manager's queue is full (`net.unix.max_dgram_qlen` is
/// 10 on these machines): the watchdog and status are sent from the serving loop, which must
/// never block. A periodic message that finds the queue full is dropped; the state changes
/// (READY, RELOADING, STOPPING) wait a bounded time for room.
public struct ServiceNotifier: Sendable {
    /// True when a service manager is listening (`NOTIFY_SOCKET` was set).
    public let isActive: Bool

    /// How often the serving loop must call `watchdogPing()`: half of `WATCHDOG_USEC`, the margin
    /// systemd itself recommends, or nil when the watchdog is off or meant for another process.
    public let watchdogPingInterval: Duration?

    private let lastStatus: StatusMemory
    private let channel: NotifySocket?

    private final class StatusMemory: Sendable {
        let text = Locked<String?>(nil)
    }

    init(isActive: Bool, watchdogUsec: UInt64?, socketPath: String? = nil) {
        self.isActive = isActive
        channel = isActive ? socketPath.flatMap(NotifySocket.init(path:)) : nil
        if isActive, let usec = watchdogUsec, usec > 0 {
            watchdogPingInterval = .microseconds(Int64(clamping: usec / 2))
        } else {
            watchdogPingInterval = nil
        }
        lastStatus = StatusMemory()
    }

    public static func fromEnvironment() -> ServiceNotifier {
        let path = getenv("NOTIFY_SOCKET").map { String(cString: $0) }
        var usec: UInt64 = 0
        // sd_watchdog_enabled applies WATCHDOG_PID: a watchdog meant for a parent or a child
        // (LISTEN_PID-style hand-down) must not be fed by us, or a hung owner would look alive.
        let enabled = sd_watchdog_enabled(0, &usec) > 0
        return ServiceNotifier(isActive: path != nil, watchdogUsec: enabled ? usec : nil, socketPath: path)
    }

    /// `READY=1` with a status line. Call only once clients can actually be served.
    public func ready(status: String) {
        let line = Self.clean(status)
        remember(line)
        send("READY=1\nSTATUS=\(line)", waitForRoom: true)
    }

    /// `RELOADING=1` with `MONOTONIC_USEC=`: systemd 252 has no `Type=notify-reload`, but it does
    /// track this so `systemctl reload` shows the unit as reloading until the next `READY=1`.
    public func reloading(status: String = "reloading configuration") {
        let line = Self.clean(status)
        remember(line)
        send("RELOADING=1\nMONOTONIC_USEC=\(SystemClock.monotonicNanoseconds() / 1000)\nSTATUS=\(line)", waitForRoom: true)
    }

    /// `STOPPING=1`: systemd stops routing expectations to us (and shows the status) while draining.
    public func stopping(status: String = "stopping") {
        let line = Self.clean(status)
        remember(line)
        send("STOPPING=1\nSTATUS=\(line)", waitForRoom: true)
    }

    /// `STATUS=` only when the text changed: it is called from periodic code, and each datagram
    /// wakes PID 1.
    public func status(_ text: String) {
        guard isActive else { return }
        let line = Self.clean(text)
        let changed = lastStatus.text.withLock { last -> Bool in
            if last == line { return false }
            last = line
            return true
        }
        if changed { send("STATUS=\(line)") }
    }

    /// `WATCHDOG=1`. Call it from the loop that serves clients, so a wedged loop stops pinging.
    public func watchdogPing() {
        guard watchdogPingInterval != nil else { return }
        send("WATCHDOG=1")
    }

    private func remember(_ line: String) {
        guard isActive else { return }
        lastStatus.text.withLock { $0 = line }
    }

    private func send(_ message: String, waitForRoom: Bool = false) {
        // Failure is ignored on purpose: there is nobody to tell but the log, and a lost status
        // line must not take the daemon down.
        channel?.send(message, waitMilliseconds: waitForRoom ? 2000 : 0)
    }

    /// One line: a newline would start a new assignment and let text forge `READY=1` & co.
    static func clean(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for ch in text.unicodeScalars {
            out.unicodeScalars.append(ch == "\n" || ch == "\r" || ch == "\0" ? " " : ch)
        }
        return out
    }
}

/// A datagram socket connected to the manager's notify socket (a path, or `@name` in the
/// abstract namespace). Connected, so `poll(POLLOUT)` reports whether the manager's queue has room.
private final class NotifySocket: Sendable {
    private let socket: Descriptor
    private var fd: Int32 { socket.raw }

    init?(path: String) {
        let address: UnixSocketAddress
        if path.hasPrefix("@") {
            guard let abstract = try? UnixSocketAddress(abstractName: String(path.dropFirst())) else { return nil }
            address = abstract
        } else {
            guard path.hasPrefix("/"), let named = try? UnixSocketAddress(path: path) else { return nil }
            address = named
        }
        guard let fd = try? UnixSocket.open(.datagram, nonBlocking: true) else { return nil }
        let socket = Descriptor(adopting: fd)
        guard (try? UnixSocket.connect(fd, to: address)) != nil else { return nil }
        self.socket = socket
    }

    /// No MSG_NOSIGNAL needed: a datagram socket whose peer is gone fails with ECONNREFUSED, never
    /// SIGPIPE (and the daemon ignores SIGPIPE anyway).
    func send(_ message: String, waitMilliseconds: Int32) {
        var bytes = Array(message.utf8)
        func attempt() -> Int32 {
            while true {
                let sent = bytes.withUnsafeMutableBytes { Glibc.send(fd, $0.baseAddress, $0.count, 0) }
                if sent >= 0 { return 0 }
                if errno != EINTR { return errno }
            }
        }
        guard attempt() == EAGAIN, waitMilliseconds > 0 else { return }
        var pollfd = Glibc.pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        if poll(&pollfd, 1, waitMilliseconds) > 0 { _ = attempt() }
    }
}
