
import Glibc

import CLinux
import Posix

/// What the load generator speaks: stopsheetd's JSON-RPC lines, or Redis `GET` in RESP.
enum WireProtocol: String {
    case stopsheet
    case redis
}

struct LoadPlan {
    var socket: String
    var wire: WireProtocol
    var connections: Int
    var pipeline: Int
    var threads: Int
    /// Answers before this moment are warm-up: sent and read, not counted.
    var measureFrom: Int64
    /// Deadline mode: stop at this moment. Ignored when `requestsPerConnection` is set.
    var measureUntil: Int64
    /// Count mode: each connection sends exactly this many requests, all counted.
    var requestsPerConnection: Int?
    var stopID: String
    var key: String
}

/// One closed-loop client connection: `pipeline` requests in flight, each answer immediately
/// replaced by a new request, all replacements of one read leaving in one `write`.
private final class ClientConnection {
    let fd: Int32
    let wire: WireProtocol
    /// Send times of the requests in flight, oldest first (a ring of `pipeline` slots).
    private var sentAt: [Int64]
    private var head = 0
    private(set) var inFlight = 0
    private var input: UnsafeMutableRawBufferPointer
    private var inputStart = 0
    private var inputEnd = 0
    /// Input bytes from `inputStart` already searched for a line end.
    private var scanned = 0
    private var output: [UInt8] = []
    private var outputSent = 0
    private var nextID = 1
    private var expectedID = 1
    var sentCount = 0
    var registeredOut = false

    static let requestHead = Array(#"{"jsonrpc":"2.0","id":"#.utf8)
    static let answerHead = requestHead
    let requestTail: [UInt8]
    let redisRequest: [UInt8]

    init(fd: Int32, wire: WireProtocol, pipeline: Int, stopID: String, key: String) {
        self.fd = fd
        self.wire = wire
        sentAt = [Int64](repeating: 0, count: pipeline)
        input = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 16)
        requestTail = Array(#","method":"stopSheet","params":{"stopId":"\#(stopID)"}}"#.utf8) + [0x0A]
        redisRequest = Array("*2\r\n$3\r\nGET\r\n$\(key.utf8.count)\r\n\(key)\r\n".utf8)
        output.reserveCapacity(4096)
    }

    deinit { input.deallocate() }

    /// Queues `count` requests; `send` writes them.
    func queue(_ count: Int) {
        for _ in 0..<count {
            switch wire {
            case .redis:
                output.append(contentsOf: redisRequest)
            case .stopsheet:
                output.append(contentsOf: Self.requestHead)
                appendDecimal(nextID)
                output.append(contentsOf: requestTail)
            }
            nextID += 1
        }
        sentCount += count
    }

    private func appendDecimal(_ value: Int) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { raw in
            var position = raw.count
            var rest = value
            repeat {
                position -= 1
                raw[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            output.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[position...]))
        }
    }

    /// Writes queued requests, stamping each new one with `now`. False on a broken socket.
    func send(newRequests: Int, now: Int64) -> Bool {
        for _ in 0..<newRequests {
            sentAt[(head + inFlight) % sentAt.count] = now
            inFlight += 1
        }
        return flush()
    }

    func flush() -> Bool {
        while outputSent < output.count {
            let count = output.withUnsafeBytes { write(fd, $0.baseAddress! + outputSent, $0.count - outputSent) }
            if count > 0 {
                outputSent += count
                continue
            }
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == EAGAIN { return true }
            return false
        }
        output.removeAll(keepingCapacity: true)
        outputSent = 0
        return true
    }

    var hasUnsentOutput: Bool { outputSent < output.count }

    enum ReadResult {
        case data
        case wouldBlock
        case closed
    }

    func readOnce() -> ReadResult {
        if inputStart == inputEnd {
            inputStart = 0
            inputEnd = 0
        } else if inputEnd == input.count || inputStart > input.count / 2 {
            let pending = inputEnd - inputStart
            guard pending < input.count else { fail("an answer longer than \(input.count) bytes") }
            memmove(input.baseAddress!, input.baseAddress! + inputStart, pending)
            inputStart = 0
            inputEnd = pending
        }
        let count = read(fd, input.baseAddress! + inputEnd, input.count - inputEnd)
        if count > 0 {
            inputEnd += count
            return .data
        }
        if count < 0, errno == EAGAIN || errno == EINTR { return .wouldBlock }
        return .closed
    }

    /// Takes every complete answer out of the input. Returns the send times of the answered
    /// requests through `answered`, and counts error answers and out-of-order ids.
    func takeAnswers(_ answered: (Int64, Bool) -> Void) {
        while inFlight > 0 {
            let ok: Bool
            switch wire {
            case .stopsheet:
                guard let line = nextLine() else { return }
                ok = checkLine(line)
            case .redis:
                guard let isValue = nextBulk() else { return }
                ok = isValue
            }
            let sent = sentAt[head]
            head = (head + 1) % sentAt.count
            inFlight -= 1
            answered(sent, ok)
        }
    }

    private func nextLine() -> Range<Int>? {
        let from = inputStart + scanned
        guard from < inputEnd, let found = memchr(input.baseAddress! + from, 0x0A, inputEnd - from) else {
            scanned = inputEnd - inputStart
            return nil
        }
        let end = input.baseAddress!.distance(to: UnsafeMutableRawPointer(found))
        let line = inputStart..<end
        inputStart = end + 1
        scanned = 0
        return line
    }

    /// An answer is good when it carries the id of the oldest request in flight and a result.
    private func checkLine(_ line: Range<Int>) -> Bool {
        let bytes = UnsafeRawBufferPointer(rebasing: input[line])
        let head = Self.answerHead
        guard bytes.count > head.count + 2, memcmp(bytes.baseAddress!, head, head.count) == 0 else { return false }
        var position = head.count
        var id = 0
        while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 {
            id = id * 10 + Int(bytes[position] - 0x30)
            position += 1
        }
        defer { expectedID += 1 }
        guard id == expectedID, position + 3 < bytes.count else { return false }
        // `,"method"` is what a line echo sends back: it counts as an answer for the baseline.
        return bytes[position + 2] != UInt8(ascii: "e")
    }

    /// A bulk reply `$<length>\r\n<bytes>\r\n`: true for a value, false for nil or anything else.
    private func nextBulk() -> Bool? {
        var position = inputStart
        guard position < inputEnd else { return nil }
        let kind = input[position]
        var length = 0
        var negative = false
        position += 1
        while position < inputEnd, input[position] != 0x0D {
            if input[position] == UInt8(ascii: "-") { negative = true } else { length = length * 10 + Int(input[position] - 0x30) }
            position += 1
        }
        guard position + 1 < inputEnd else { return nil }
        position += 2
        if kind != UInt8(ascii: "$") || negative {
            // An error, a nil or an unexpected reply: one line.
            inputStart = position
            return false
        }
        guard inputEnd - position >= length + 2 else { return nil }
        inputStart = position + length + 2
        return true
    }
}

/// One thread's share of the connections, on its own epoll set.
final class LoadWorker: @unchecked Sendable {
    private let plan: LoadPlan
    private var connections: [ClientConnection] = []
    private let epollFD: Int32
    var histogram = Histogram()
    var counted = 0
    var failed = 0
    var lastAnswerAt: Int64 = 0

    init(plan: LoadPlan, connectionCount: Int) {
        self.plan = plan
        epollFD = clinux_epoll_create()
        for index in 0..<connectionCount {
            let fd = connectUnix(plan.socket)
            connections.append(ClientConnection(fd: fd, wire: plan.wire, pipeline: plan.pipeline, stopID: plan.stopID, key: plan.key))
            var event = epoll_event()
            event.events = EPOLLIN.rawValue
            event.data.u64 = UInt64(index)
            guard epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &event) == 0 else { fail("epoll_ctl: \(Errno.current)") }
        }
    }

    private func quota(_ connection: ClientConnection) -> Int {
        guard let limit = plan.requestsPerConnection else { return plan.pipeline }
        return max(0, min(plan.pipeline - connection.inFlight, limit - connection.sentCount))
    }

    func run() {
        for connection in connections {
            connection.queue(quota(connection))
            guard connection.send(newRequests: connection.sentCount, now: monotonicNanos()) else { fail("write failed") }
        }
        var events = [epoll_event](repeating: epoll_event(), count: 128)
        var active = connections.count
        while active > 0 {
            let count = events.withUnsafeMutableBufferPointer { epoll_wait(epollFD, $0.baseAddress, Int32($0.count), 100) }
            let now = monotonicNanos()
            if plan.requestsPerConnection == nil, now >= plan.measureUntil { break }
            if count < 0 {
                if errno == EINTR { continue }
                fail("epoll_wait: \(Errno.current)")
            }
            for index in 0..<Int(count) {
                let event = events[index]
                let connection = connections[Int(event.data.u64)]
                if event.events & EPOLLOUT.rawValue != 0, !connection.flush() { fail("write failed") }
                if event.events & (EPOLLIN.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0 {
                    switch connection.readOnce() {
                    case .closed: fail("the server closed a connection")
                    case .wouldBlock: break
                    case .data:
                        let readAt = monotonicNanos()
                        var answered = 0
                        connection.takeAnswers { sentAt, ok in
                            answered += 1
                            if readAt >= plan.measureFrom, readAt < plan.measureUntil || plan.requestsPerConnection != nil {
                                histogram.record(readAt - sentAt)
                                counted += 1
                                if !ok { failed += 1 }
                            }
                        }
                        if answered > 0 {
                            lastAnswerAt = readAt
                            let more = quota(connection)
                            connection.queue(more)
                            if !connection.send(newRequests: more, now: monotonicNanos()) { fail("write failed") }
                            if plan.requestsPerConnection != nil, connection.inFlight == 0 { active -= 1 }
                        }
                    }
                }
                let wantOut = connection.hasUnsentOutput
                if wantOut != connection.registeredOut {
                    var change = epoll_event()
                    change.events = EPOLLIN.rawValue | (wantOut ? EPOLLOUT.rawValue : 0)
                    change.data.u64 = event.data.u64
                    _ = epoll_ctl(epollFD, EPOLL_CTL_MOD, connection.fd, &change)
                    connection.registeredOut = wantOut
                }
            }
        }
        for connection in connections { close(connection.fd) }
        close(epollFD)
    }
}

/// `loadgen`: drives a server and prints one `key=value` line of figures.
func runLoadGenerator(_ options: Options) {
    let connections = options.int("connections", 1)
    let pipeline = options.int("pipeline", 1)
    let threads = max(1, min(options.int("threads", 1), connections))
    let warmup = Int64(options.double("warmup", 0.5) * 1e9)
    let duration = Int64(options.double("duration", 2) * 1e9)
    let total = options.has("requests") ? options.int("requests") : nil
    let serverPID = options.has("pid") ? Int32(options.int("pid")) : nil
    guard let wire = WireProtocol(rawValue: options.string("protocol", "stopsheet")) else { fail("--protocol stopsheet|redis") }

    let start = monotonicNanos()
    var plan = LoadPlan(
        socket: options.string("socket"), wire: wire, connections: connections, pipeline: pipeline, threads: threads,
        measureFrom: total == nil ? start + warmup : 0, measureUntil: total == nil ? start + warmup + duration : Int64.max,
        requestsPerConnection: total.map { ($0 + connections - 1) / connections },
        stopID: options.string("stop-id", "40380"), key: options.string("key", "sheet"))
    var workers: [LoadWorker] = []
    for index in 0..<threads {
        workers.append(LoadWorker(plan: plan, connectionCount: connections / threads + (index < connections % threads ? 1 : 0)))
    }
    if total != nil { plan.measureFrom = monotonicNanos() }
    let running = workers.map { worker in Thread { worker.run() } }

    // CPU is sampled over the measured window only, so warm-up and connection set-up do not count.
    func sleepUntil(_ moment: Int64) {
        let wait = moment - monotonicNanos()
        if wait > 0 { usleep(UInt32(wait / 1000)) }
    }
    var windowStart = plan.measureFrom
    if total == nil { sleepUntil(plan.measureFrom) } else { windowStart = monotonicNanos() }
    let serverBefore = serverPID.flatMap(processCPUTicks)
    let clientBefore = selfCPUMicros()
    if total == nil { sleepUntil(plan.measureUntil) }
    if total != nil { for thread in running { thread.join() } }
    let serverAfter = serverPID.flatMap(processCPUTicks)
    let clientAfter = selfCPUMicros()
    let windowEnd = total == nil ? plan.measureUntil : (workers.map(\.lastAnswerAt).max() ?? monotonicNanos())
    if total == nil { for thread in running { thread.join() } }

    var histogram = Histogram()
    var counted = 0
    var failed = 0
    for worker in workers {
        histogram.merge(worker.histogram)
        counted += worker.counted
        failed += worker.failed
    }
    let seconds = Double(windowEnd - windowStart) / 1e9
    var fields: [(String, String)] = [
        ("requests", String(counted)), ("seconds", format(seconds, 3)), ("rps", String(Int(Double(counted) / seconds))),
        ("p50_us", format(Double(histogram.quantile(0.5)) / 1000, 1)),
        ("p99_us", format(Double(histogram.quantile(0.99)) / 1000, 1)),
        ("p999_us", format(Double(histogram.quantile(0.999)) / 1000, 1)),
        ("errors", String(failed)),
        ("client_cpu_us", format(Double(clientAfter - clientBefore) / Double(max(counted, 1)), 2)),
    ]
    if let serverPID, let before = serverBefore, let after = serverAfter {
        let micros = Double(after - before) * 1e6 / Double(clockTicksPerSecond)
        fields.append(("server_cpu_us", format(micros / Double(max(counted, 1)), 2)))
        fields.append(("rss_kib", String(processMemoryKiB(serverPID, "VmRSS") ?? -1)))
        fields.append(("hwm_kib", String(processMemoryKiB(serverPID, "VmHWM") ?? -1)))
    }
    print(fields.map { "\($0.0)=\($0.1)" }.joined(separator: " "))
}

func selfCPUMicros() -> Int64 {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return (Int64(usage.ru_utime.tv_sec) + Int64(usage.ru_stime.tv_sec)) * 1_000_000 + Int64(usage.ru_utime.tv_usec) + Int64(usage.ru_stime.tv_usec)
}

func format(_ value: Double, _ decimals: Int) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (value * scale).rounded()
    let whole = Int(scaled / scale)
    guard decimals > 0 else { return String(whole) }
    let fraction = String(Int(abs(scaled) - abs(Double(whole)) * scale))
    return "\(value < 0 && whole == 0 ? "-" : "")\(whole).\(String(repeating: "0", count: decimals - fraction.count))\(fraction)"
}
