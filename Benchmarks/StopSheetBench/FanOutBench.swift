import Glibc
import CLinux
import Posix
import StopSheetClient
import StopSheetCore

/// `fanout --socket S --pid P --stations CSV --alerts-file F [--connections 1000] [--rounds 5]
/// [--hold SECONDS]`: push's fan-out. N connections each subscribe to one station (round-robin
/// over the stations of CSV); then, per round, F is rewritten with a systemwide alert of a new
/// headline (so every station's sheet changes) and `refresh {what: alerts}` is sent on a control
/// connection; the time from that send until each subscriber has read its notification is
/// taken. Prints `connections=… rss_kib=… last_ms_p50=… last_ms_max=… p50_ms=… p99_ms=… max_ms=…`,
/// then, with --hold, `holding` and keeps the subscribers connected that long (the bench runs
/// a normal load meanwhile), reading and discarding whatever arrives.
func runFanOutBench(_ options: Options) {
    let socket = options.string("socket")
    let count = options.int("connections", 1000)
    let rounds = max(1, options.int("rounds", 5))
    let alertsFile = options.string("alerts-file")
    let stations = stationIDs(options.string("stations"))
    guard !stations.isEmpty else { fail("no stations in \(options.string("stations"))") }
    raiseDescriptorLimit(to: count + 64)

    var subscribers: [Int32] = []
    for index in 0..<count {
        let fd = connectUnix(socket, blocking: true)
        let stop = stations[index % stations.count]
        writeAll(fd, Array(#"{"jsonrpc":"2.0","id":1,"method":"subscribe","params":{"stopIds":["\#(stop)"]}}"#.utf8) + [0x0A])
        subscribers.append(fd)
    }
    for fd in subscribers {
        let reply = readUntil(fd) { $0.last == 0x0A }
        guard reply.starts(with: Array(#"{"jsonrpc":"2.0","id":1,"result":{"subscription""#.utf8)) else {
            fail("subscribe failed: \(String(decoding: reply.prefix(200), as: UTF8.self))")
        }
        try? DescriptorFlags.setNonBlocking(fd)
    }
    let pid = options.has("pid") ? Int32(options.int("pid")) : nil
    let rss = pid.flatMap { processMemoryKiB($0, "VmRSS") } ?? 0

    let control: StopSheetClient
    do { control = try StopSheetClient(socketPath: socket, timeout: .seconds(60)) } catch { fail("control connection: \(error)") }
    let epoll = clinux_epoll_create()
    for (index, fd) in subscribers.enumerated() {
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.u64 = UInt64(index)
        epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event)
    }
    var latencies: [Double] = []
    var lasts: [Double] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    for round in 1...rounds {
        let alerts = #"{"alerts":[{"id":"fanout","status":"active","headline":"Fan-out round \#(round)","description":"","scopes":[{"type":"systemwide"}]}]}"#
        writeFile(alertsFile, alerts)
        var pending = Set(0..<count)
        let started = monotonicNanos()
        do { _ = try control.refresh(.alerts) } catch { fail("refresh: \(error)") }
        var events = [epoll_event](repeating: epoll_event(), count: 256)
        while !pending.isEmpty {
            let ready = events.withUnsafeMutableBufferPointer { epoll_wait(epoll, $0.baseAddress, Int32($0.count), 30_000) }
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { fail("round \(round): \(pending.count) subscribers had no notification within 30 s") }
            let now = monotonicNanos()
            for event in events[0..<Int(ready)] {
                let index = Int(event.data.u64)
                // Each notification is one line; the round's is the first newline this round.
                var sawLine = false
                while true {
                    let got = buffer.withUnsafeMutableBytes { read(subscribers[index], $0.baseAddress, $0.count) }
                    guard got > 0 else { break }
                    if buffer[0..<got].contains(0x0A) { sawLine = true }
                }
                if sawLine, pending.remove(index) != nil { latencies.append(Double(now - started) / 1e6) }
            }
        }
        lasts.append(Double(monotonicNanos() - started) / 1e6)
    }
    latencies.sort()
    lasts.sort()
    func at(_ sorted: [Double], _ q: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))] }
    print("connections=\(count) rounds=\(rounds) rss_kib=\(rss) last_ms_p50=\(format(at(lasts, 0.5), 1)) last_ms_max=\(format(lasts.last!, 1)) "
        + "p50_ms=\(format(at(latencies, 0.5), 1)) p99_ms=\(format(at(latencies, 0.99), 1)) max_ms=\(format(latencies.last!, 1))")
    fflushStandardOutput()

    let hold = options.double("hold", 0)
    guard hold > 0 else { return }
    print("holding")
    fflushStandardOutput()
    let until = monotonicNanos() + Int64(hold * 1e9)
    var events = [epoll_event](repeating: epoll_event(), count: 256)
    while monotonicNanos() < until {
        let ready = events.withUnsafeMutableBufferPointer { epoll_wait(epoll, $0.baseAddress, Int32($0.count), 200) }
        for event in events[0..<Int(max(0, ready))] {
            while buffer.withUnsafeMutableBytes({ read(subscribers[Int(event.data.u64)], $0.baseAddress, $0.count) }) > 0 {}
        }
    }
}

/// The MAP_ID column of an 'L' stops CSV, each station once, in file order.
private func stationIDs(_ path: String) -> [String] {
    guard let text = readSmallFile(path) else { fail("cannot read \(path)") }
    let lines = text.split(separator: "\n")
    guard let header = lines.first?.split(separator: ","), let column = header.firstIndex(of: "MAP_ID") else { return [] }
    var seen: Set<String> = []
    var ids: [String] = []
    for line in lines.dropFirst() {
        // MAP_ID comes before any quoted field with a comma in the CTA export, except the
        // descriptive name: take the first 5-digit field starting with 4.
        let fields = line.split(separator: ",", omittingEmptySubsequences: false)
        let id = fields.count > column && fields[column].count == 5 && fields[column].hasPrefix("4") ? String(fields[column])
            : fields.first { $0.count == 5 && $0.hasPrefix("4") }.map(String.init)
        if let id, seen.insert(id).inserted { ids.append(id) }
    }
    return ids
}

private func writeFile(_ path: String, _ text: String) {
    let temporary = path + ".new"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { fail("cannot write \(temporary)") }
    writeAll(fd, Array(text.utf8))
    close(fd)
    guard rename(temporary, path) == 0 else { fail("rename \(temporary): \(Errno.current)") }
}

private func raiseDescriptorLimit(to wanted: Int) {
    var limit = rlimit()
    getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    guard limit.rlim_cur < rlim_t(wanted) else { return }
    limit.rlim_cur = min(limit.rlim_max, rlim_t(wanted))
    setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
}

private func fflushStandardOutput() { fflush(nil) }
