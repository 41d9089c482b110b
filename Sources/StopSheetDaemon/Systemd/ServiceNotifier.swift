import CSystemd
import Glibc
import Synchronization

/// The daemon's side of systemd's notify protocol (`Type=notify`): readiness, status line,
/// watchdog keep-alives, reload and stop announcements.
///
/// Every method is a no-op when `NOTIFY_SOCKET` was unset at start-up, so the daemon runs the
/// same from a terminal. Calls are safe from any thread: `sd_notify` opens its own datagram
/// socket per call, and the only shared state (the last status sent) sits behind a mutex.
public struct ServiceNotifier: Sendable {
    /// True when a service manager is listening (`NOTIFY_SOCKET` was set).
    public let isActive: Bool

    /// How often the serving loop must call `watchdogPing()`: half of `WATCHDOG_USEC`, the margin
    /// systemd itself recommends, or nil when the watchdog is off or meant for another process.
    public let watchdogPingInterval: Duration?

    private let lastStatus: StatusMemory

    private final class StatusMemory: Sendable {
        let text = Mutex<String?>(nil)
    }

    init(isActive: Bool, watchdogUsec: UInt64?) {
        self.isActive = isActive
        if isActive, let usec = watchdogUsec, usec > 0 {
            watchdogPingInterval = .microseconds(Int64(clamping: usec / 2))
        } else {
            watchdogPingInterval = nil
        }
        lastStatus = StatusMemory()
    }

    public static func fromEnvironment() -> ServiceNotifier {
        let active = getenv("NOTIFY_SOCKET") != nil
        var usec: UInt64 = 0
        // sd_watchdog_enabled applies WATCHDOG_PID: a watchdog meant for a parent or a child
        // (LISTEN_PID-style hand-down) must not be fed by us, or a hung owner would look alive.
        let enabled = sd_watchdog_enabled(0, &usec) > 0
        return ServiceNotifier(isActive: active, watchdogUsec: enabled ? usec : nil)
    }

    /// `READY=1` with a status line. Call only once clients can actually be served.
    public func ready(status: String) {
        let line = Self.clean(status)
        remember(line)
        send("READY=1\nSTATUS=\(line)")
    }

    /// `RELOADING=1` with `MONOTONIC_USEC=`: systemd 252 has no `Type=notify-reload`, but it does
    /// track this so `systemctl reload` shows the unit as reloading until the next `READY=1`.
    public func reloading(status: String = "reloading configuration") {
        let line = Self.clean(status)
        remember(line)
        send("RELOADING=1\nMONOTONIC_USEC=\(csystemd_monotonic_usec())\nSTATUS=\(line)")
    }

    /// `STOPPING=1`: systemd stops routing expectations to us (and shows the status) while draining.
    public func stopping(status: String = "stopping") {
        let line = Self.clean(status)
        remember(line)
        send("STOPPING=1\nSTATUS=\(line)")
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

    private func send(_ message: String) {
        guard isActive else { return }
        // Failure is ignored on purpose: there is nobody to tell but the log, and a lost status
        // line must not take the daemon down. Keep NOTIFY_SOCKET set (0): we notify many times.
        _ = sd_notify(0, message)
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
