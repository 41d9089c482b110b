import Foundation
import Glibc
import Testing
@testable import StopSheetDaemon

/// A test-owned NOTIFY_SOCKET: what the daemon sends is only proven by reading it back, since
/// sd_notify reports success when nobody listens.
final class NotifyReceiver {
    let path: String
    let fd: Int32

    init() throws {
        path = "/tmp/stopsheetd-notify-test-\(getpid()).sock"
        unlink(path)
        fd = try UnixSocket.open(.datagram)
        try UnixSocket.bind(fd, to: UnixSocketAddress(path: path))
    }

    /// The next datagram, or nil if none arrives within `timeoutMs`.
    func receive(timeoutMs: Int32 = 1000) -> String? {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, timeoutMs) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd, &buffer, buffer.count, 0)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }

    /// Fills the receiver's queue with one-byte "x" datagrams until a send would block, as a
    /// manager that is not reading leaves it; returns how many were queued.
    func fillQueue() throws -> Int {
        let filler = try UnixSocket.open(.datagram, nonBlocking: true)
        fillers.append(filler)
        try UnixSocket.connect(filler, to: UnixSocketAddress(path: path))
        var filled = 0
        while filled < 100_000, Glibc.send(filler, "x", 1, 0) == 1 { filled += 1 }
        guard errno == EAGAIN else { throw TestFailure("filling the notify queue: errno \(errno)") }
        return filled
    }

    private var fillers: [Int32] = []

    deinit {
        fillers.forEach { close($0) }
        close(fd)
        unlink(path)
    }
}

/// A notify datagram's assignments.
func fields(_ datagram: String?) -> [String: String] {
    var out: [String: String] = [:]
    for line in (datagram ?? "").split(separator: "\n") {
        guard let eq = line.firstIndex(of: "=") else { continue }
        out[String(line[..<eq])] = String(line[line.index(after: eq)...])
    }
    return out
}

private func monotonicUsec() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
}

// Serialized: these tests set NOTIFY_SOCKET / WATCHDOG_* in the process environment.
@Suite(.serialized) struct ServiceNotifierTests {
    @Test func sendsReadyStatusReloadStoppingAndWatchdog() throws {
        let receiver = try NotifyReceiver()
        setenv("NOTIFY_SOCKET", receiver.path, 1)
        setenv("WATCHDOG_USEC", "3000000", 1)
        unsetenv("WATCHDOG_PID")
        defer { unsetenv("NOTIFY_SOCKET"); unsetenv("WATCHDOG_USEC") }

        let notifier = ServiceNotifier.fromEnvironment()
        #expect(notifier.isActive)
        #expect(notifier.watchdogPingInterval == .milliseconds(1500))

        notifier.ready(status: "serving 143 stations, 17 train alerts")
        let ready = fields(receiver.receive())
        #expect(ready["READY"] == "1")
        #expect(ready["STATUS"] == "serving 143 stations, 17 train alerts")

        // Unchanged status is not re-sent; a changed one is.
        notifier.status("serving 143 stations, 17 train alerts")
        notifier.status("degraded: alerts upstream failing")
        #expect(fields(receiver.receive())["STATUS"] == "degraded: alerts upstream failing")
        notifier.status("degraded: alerts upstream failing")
        #expect(receiver.receive(timeoutMs: 100) == nil)

        // A newline in a status must not smuggle in another assignment.
        notifier.status("bad\nREADY=1")
        let smuggled = fields(receiver.receive())
        #expect(smuggled["STATUS"] == "bad READY=1")
        #expect(smuggled["READY"] == nil)

        notifier.watchdogPing()
        #expect(receiver.receive() == "WATCHDOG=1")

        let before = monotonicUsec()
        notifier.reloading()
        let after = monotonicUsec()
        let reload = fields(receiver.receive())
        #expect(reload["RELOADING"] == "1")
        let stamp = try #require(reload["MONOTONIC_USEC"].flatMap { UInt64($0) })
        #expect(stamp >= before && stamp <= after)

        notifier.ready(status: "serving again")
        #expect(fields(receiver.receive())["READY"] == "1")

        notifier.stopping(status: "stopping")
        let stop = fields(receiver.receive())
        #expect(stop["STOPPING"] == "1")
        #expect(stop["STATUS"] == "stopping")
    }

    @Test func watchdogMeantForAnotherProcessIsIgnored() throws {
        let receiver = try NotifyReceiver()
        setenv("NOTIFY_SOCKET", receiver.path, 1)
        setenv("WATCHDOG_USEC", "3000000", 1)
        setenv("WATCHDOG_PID", "1", 1)
        defer { unsetenv("NOTIFY_SOCKET"); unsetenv("WATCHDOG_USEC"); unsetenv("WATCHDOG_PID") }

        let notifier = ServiceNotifier.fromEnvironment()
        #expect(notifier.watchdogPingInterval == nil)
        notifier.watchdogPing()
        #expect(receiver.receive(timeoutMs: 100) == nil)

        setenv("WATCHDOG_PID", String(getpid()), 1)
        #expect(ServiceNotifier.fromEnvironment().watchdogPingInterval == .milliseconds(1500))
    }

    /// sd_watchdog_enabled(3): a WATCHDOG_USEC of 0 enables nothing; a ping interval of zero
    /// would have the loop ping without end.
    @Test func aWatchdogOfZeroMicrosecondsIsOff() {
        #expect(ServiceNotifier(isActive: true, watchdogUsec: 0).watchdogPingInterval == nil)
        #expect(ServiceNotifier(isActive: true, watchdogUsec: 2).watchdogPingInterval == .microseconds(1))
    }

    /// Every character that would end the STATUS= line, or the datagram's string, is a space.
    @Test func aStatusIsOneLineWhateverItsText() {
        #expect(ServiceNotifier.clean("a\nb\rc\0d") == "a b c d")
        #expect(ServiceNotifier.clean("serving 143 stations; alerts 5s old") == "serving 143 stations; alerts 5s old")
    }

    /// A manager that went away (its socket closed) refuses each datagram: the notifier gives up
    /// on it at once, never retrying without end, and the daemon goes on.
    @Test func aManagerThatLeftRefusesEachDatagramAndNothingWaits() throws {
        var receiver: NotifyReceiver? = try NotifyReceiver()
        let notifier = ServiceNotifier(isActive: true, watchdogUsec: 2_000_000, socketPath: receiver?.path)
        notifier.status("serving")
        #expect(fields(receiver?.receive())["STATUS"] == "serving")
        receiver = nil
        notifier.status("degraded")
        notifier.watchdogPing()
        notifier.ready(status: "serving again")
        notifier.stopping()
        #expect(notifier.isActive, "sent into the void, each call returned")
    }

    /// A manager whose queue is full: STATUS= and WATCHDOG=1, sent from the serving loop's tick,
    /// are dropped at once, never waited for, so the loop is never held by systemd.
    @Test func aFullQueueDropsAStatusWithoutWaiting() throws {
        let receiver = try NotifyReceiver()
        let notifier = ServiceNotifier(isActive: true, watchdogUsec: 2_000_000, socketPath: receiver.path)
        let filled = try receiver.fillQueue()
        #expect(filled > 0, "the receiver's queue is full")
        notifier.status("dropped")
        notifier.watchdogPing()
        var queued = 0
        while receiver.receive(timeoutMs: 0) == "x" { queued += 1 }
        #expect(queued == filled, "only the filler's datagrams: the status and the ping were dropped")
    }

    /// A manager whose queue is full: READY=1, RELOADING=1 and STOPPING=1 wait for room (up to
    /// their bound) rather than being dropped, since systemd would otherwise never hear that the
    /// service started, reloads or stops (a status and a ping are dropped: above). The test sees
    /// the notifier's thread blocked in its wait (its current system call, from /proc), then makes
    /// room: no sleep and no time limit decides the outcome.
    @Test(arguments: ["READY", "RELOADING", "STOPPING"])
    func aStateChangeWaitsForRoomInAFullQueue(assignment: String) throws {
        let receiver = try NotifyReceiver()
        let notifier = ServiceNotifier(isActive: true, watchdogUsec: nil, socketPath: receiver.path)
        let filled = try receiver.fillQueue()
        #expect(filled > 0, "the receiver's queue is full")
        let thread = NotifierThread {
            switch assignment {
            case "READY": notifier.ready(status: "ready")
            case "RELOADING": notifier.reloading()
            default: notifier.stopping()
            }
        }
        var waiting = false
        while !thread.finished {
            if thread.isInPoll { waiting = true; break }
            sched_yield()
        }
        #expect(waiting, "\(assignment)=1 was dropped at once instead of waiting for room")
        _ = receiver.receive(timeoutMs: 0)
        thread.join()
        var last: String?
        while let datagram = receiver.receive(timeoutMs: 0) { last = datagram }
        #expect(fields(last)[assignment] == "1", "\(assignment)=1 sent once there was room")
    }

    @Test func inactiveWithoutNotifySocket() {
        unsetenv("NOTIFY_SOCKET")
        setenv("WATCHDOG_USEC", "3000000", 1)
        defer { unsetenv("WATCHDOG_USEC") }
        let notifier = ServiceNotifier.fromEnvironment()
        #expect(!notifier.isActive)
        #expect(notifier.watchdogPingInterval == nil)
        // Must be harmless no-ops.
        notifier.ready(status: "x")
        notifier.status("y")
        notifier.watchdogPing()
        notifier.reloading()
        notifier.stopping(status: "z")
    }
}

@Suite struct ListenFDsTests {
    private func makeSocket(_ domain: Int32, _ type: Int32, listening: Bool) throws -> Int32 {
        let fd = socket(domain, type, 0)
        try #require(fd >= 0)
        if domain == AF_INET {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            try #require(bound == 0)
        } else if listening {
            // An unbound Unix socket cannot listen; an abstract name leaves nothing to clean up.
            try UnixSocket.bind(fd, to: UnixSocketAddress(abstractName: "stopsheetd-listen-test-\(getpid())-\(fd)"))
        }
        if listening { try #require(listen(fd, 1) == 0) }
        return fd
    }

    @Test func acceptsUnixStreamListenerAndMakesItNonBlocking() throws {
        let fd = try makeSocket(AF_UNIX, Int32(SOCK_STREAM.rawValue), listening: true)
        defer { close(fd) }
        try ListenFDs.adopt(fd, name: "stopsheetd.socket")
        #expect(fcntl(fd, F_GETFL) & O_NONBLOCK != 0)
        #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0)
    }

    @Test func rejectsTCPListener() throws {
        let fd = try makeSocket(AF_INET, Int32(SOCK_STREAM.rawValue), listening: true)
        defer { close(fd) }
        #expect {
            try ListenFDs.adopt(fd, name: "tcp")
        } throws: { error in
            "\(error)".contains("an IPv4 listening stream socket") && "\(error)".contains("not a listening Unix stream socket")
        }
    }

    @Test func rejectsDatagramAndUnlistenedSockets() throws {
        let datagram = try makeSocket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), listening: false)
        defer { close(datagram) }
        #expect {
            try ListenFDs.adopt(datagram, name: "dgram")
        } throws: { "\($0)".contains("a Unix datagram socket") }

        let unlistened = try makeSocket(AF_UNIX, Int32(SOCK_STREAM.rawValue), listening: false)
        defer { close(unlistened) }
        #expect(throws: ListenFDsError.self) { try ListenFDs.adopt(unlistened, name: "stream") }
    }

    @Test func notSocketActivatedMeansNoDescriptors() throws {
        unsetenv("LISTEN_FDS")
        unsetenv("LISTEN_PID")
        #expect(try ListenFDs.take() == [])
    }
}

@Suite struct JournalRecordTests {
    private let entry = LogEntry(level: .warning, message: "refresh failed", fields: [("upstream", "alerts"), ("MESSAGE", "forged"), ("_PID", "1"),
                                                                                       ("station-id", "40380"), ("STOPSHEET_INSTANCE", "other"), ("9X", "dropped")],
                                 file: "Refresher.swift", line: 42, function: "round()")

    /// The sink's own fields first; an entry's field renamed as journald keeps it (a leading `_`
    /// of journald's trusted fields dropped), never one of the sink's own, and none that no
    /// name can carry; the instance's field only for a named instance.
    @Test func theSinksFieldsThenTheEntrysUnderKeptNamesNeverTheSinksOwn() {
        let own: [(String, String)] = [("MESSAGE", "refresh failed"), ("PRIORITY", String(LogLevel.warning.rawValue)), ("SYSLOG_IDENTIFIER", "stopsheetd"),
                                       ("CODE_FILE", "Refresher.swift"), ("CODE_LINE", "42"), ("CODE_FUNC", "round()")]
        let entryFields: [(String, String)] = [("UPSTREAM", "alerts"), ("PID", "1"), ("STATION_ID", "40380")]
        let plain = JournalLogSink(instance: nil).record(of: entry)
        #expect(plain.map { "\($0)=\($1)" } == (own + entryFields).map { "\($0)=\($1)" })
        #expect(JournalLogSink(instance: "").record(of: entry).count == plain.count, "the default instance has no field")
        let named = JournalLogSink(instance: "nyct").record(of: entry)
        #expect(named.map { "\($0)=\($1)" } == (own + [("STOPSHEET_INSTANCE", "nyct")] + entryFields).map { "\($0)=\($1)" })
    }
}

@Suite struct JournalFieldNameTests {
    @Test func validNamesPassThrough() {
        #expect(JournalLogSink.fieldName("STOPSHEET_EVENT") == "STOPSHEET_EVENT")
        #expect(JournalLogSink.fieldName("HTTP_STATUS") == "HTTP_STATUS")
    }

    @Test func invalidNamesAreRepairedOrDropped() {
        #expect(JournalLogSink.fieldName("station_id") == "STATION_ID")
        #expect(JournalLogSink.fieldName("peer-uid") == "PEER_UID")
        // Leading `_` is reserved for journald's trusted fields: never let a caller forge one.
        #expect(JournalLogSink.fieldName("_SYSTEMD_UNIT") == "SYSTEMD_UNIT")
        #expect(JournalLogSink.fieldName("1ABC") == nil)
        #expect(JournalLogSink.fieldName("") == nil)
        #expect(JournalLogSink.fieldName("___") == nil)
        #expect(JournalLogSink.fieldName(String(repeating: "A", count: 65)) == nil)
        #expect(JournalLogSink.fieldName("9LIVES") == nil && JournalLogSink.fieldName("_0") == nil, "no leading digit, 0 to 9")
    }

    /// The bounds of each kept class are kept: A and Z, a and z (uppercased), 0 and 9, and a name
    /// of exactly 64 bytes.
    @Test func theEdgesOfEachClassAndTheLengthLimitAreKept() {
        #expect(JournalLogSink.fieldName("AZ_az_09") == "AZ_AZ_09")
        #expect(JournalLogSink.fieldName("Z9") == "Z9")
        #expect(JournalLogSink.fieldName("@[`{/:") == nil, "the bytes just outside each class are stray: all `_`, then dropped")
        #expect(JournalLogSink.fieldName(String(repeating: "A", count: 64)) == String(repeating: "A", count: 64))
    }
}

/// A thread that runs one call, and tells whether it has finished or is blocked in poll(2) (its
/// current system call, read from its /proc/<pid>/task/<tid>/syscall).
private final class NotifierThread: @unchecked Sendable {
    private let lock = NSLock()
    /// The thread's own /proc directory, `<pid>/task/<tid>`.
    private var task = ""
    private var done = false
    private let ended = DispatchSemaphore(value: 0)

    init(_ body: @escaping @Sendable () -> Void) {
        Thread { [self] in
            let task = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
            lock.withLock { self.task = task }
            body()
            lock.withLock { done = true }
            ended.signal()
        }.start()
    }

    var finished: Bool { lock.withLock { done } }

    /// poll and ppoll, by this architecture's numbers.
    private static let pollCalls: Set<String> = {
        #if arch(x86_64)
        return ["7", "271"]
        #else
        return ["73"]
        #endif
    }()

    var isInPoll: Bool {
        let task = lock.withLock { self.task }
        guard !task.isEmpty, let text = try? String(contentsOfFile: "/proc/\(task)/syscall", encoding: .utf8) else { return false }
        return Self.pollCalls.contains(String(text.prefix { $0 != " " && $0 != "\n" }))
    }

    func join() { ended.wait() }
}
