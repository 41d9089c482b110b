
import Glibc
import Posix

/// Monotonic nanoseconds: the only clock latencies are taken with.
@inline(__always)
func monotonicNanos() -> Int64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
}

/// The calling thread's CPU time in nanoseconds: what a build costs, apart from the time another
/// process held the core (a busy machine lengthens wall times, not this).
func threadCPUNanos() -> Int64 {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
}

/// The process's minor page faults so far: each is a page of memory touched for the first time.
func minorPageFaults() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_minflt
}

func fail(_ message: String) -> Never {
    printError("stopsheet-bench: \(message)")
    exit(2)
}

/// `--name value` options after a subcommand; bare words are kept in order.
struct Options {
    private var values: [String: String] = [:]
    private(set) var rest: [String] = []

    init(_ arguments: ArraySlice<String>) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            if argument == "--" {
                while let word = iterator.next() { rest.append(word) }
            } else if argument.hasPrefix("--") {
                guard let value = iterator.next() else { fail("\(argument) needs a value") }
                values[String(argument.dropFirst(2))] = value
            } else {
                rest.append(argument)
            }
        }
    }

    func string(_ name: String, _ fallback: String? = nil) -> String {
        guard let value = values[name] ?? fallback else { fail("missing --\(name)") }
        return value
    }

    func int(_ name: String, _ fallback: Int? = nil) -> Int {
        guard let text = values[name] else {
            guard let fallback else { fail("missing --\(name)") }
            return fallback
        }
        guard let value = Int(text) else { fail("--\(name) must be an integer") }
        return value
    }

    func double(_ name: String, _ fallback: Double) -> Double {
        guard let text = values[name] else { return fallback }
        guard let value = Double(text) else { fail("--\(name) must be a number") }
        return value
    }

    func has(_ name: String) -> Bool { values[name] != nil }
}

/// A connected Unix stream socket, non-blocking unless asked; connected blocking, so a full
/// accept backlog waits instead of failing the run.
func connectUnix(_ path: String, blocking: Bool = false) -> Int32 {
    do {
        let fd = try UnixSocket.open(.stream)
        try UnixSocket.connect(fd, to: unixAddress(path))
        if !blocking { try DescriptorFlags.setNonBlocking(fd) }
        return fd
    } catch {
        fail("connect \(path): \(error)")
    }
}

/// A socket that is `kind` and bound at `path` (a file left by an earlier run is removed first).
func bindUnix(_ path: String, _ kind: UnixSocket.Kind, nonBlocking: Bool = false) -> Int32 {
    unlink(path)
    do {
        let fd = try UnixSocket.open(kind, nonBlocking: nonBlocking)
        try UnixSocket.bind(fd, to: unixAddress(path))
        return fd
    } catch {
        fail("bind \(path): \(error)")
    }
}

private func unixAddress(_ path: String) -> UnixSocketAddress {
    do throws(UnixSocketPathError) { return try UnixSocketAddress(path: path) } catch { fail("\(error)") }
}

/// Writes all of `bytes` to a blocking fd.
func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
        let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { fail("write: \(Errno.current)") }
        offset += count
    }
}

/// Reads from a blocking fd until `complete` says the bytes so far are a whole answer.
func readUntil(_ fd: Int32, _ complete: ([UInt8]) -> Bool) -> [UInt8] {
    var received: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    while !complete(received) {
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { fail("read: connection ended (\(Errno.current))") }
        received += chunk[0..<count]
    }
    return received
}

/// A thread running `body`; `join` waits for it.
final class Thread: @unchecked Sendable {
    private var handle = pthread_t()
    private let body: () -> Void

    init(_ body: @escaping () -> Void) {
        self.body = body
        let retained = Unmanaged.passRetained(self).toOpaque()
        let result = pthread_create(&handle, nil, { raw in
            let thread = Unmanaged<Thread>.fromOpaque(raw!).takeRetainedValue()
            thread.body()
            return nil
        }, retained)
        guard result == 0 else { fail("pthread_create: \(result)") }
    }

    func join() { pthread_join(handle, nil) }
}

/// utime + stime of a process, in clock ticks, from /proc/PID/stat.
func processCPUTicks(_ pid: Int32) -> Int64? {
    guard let text = readSmallFile("/proc/\(pid)/stat"), let close = text.lastIndex(of: ")") else { return nil }
    // Fields after "comm)": state is field 3; utime and stime are fields 14 and 15.
    let fields = text[text.index(after: close)...].split(separator: " ")
    guard fields.count > 13, let user = Int64(fields[11]), let system = Int64(fields[12]) else { return nil }
    return user + system
}

/// A `Vm…` line of /proc/PID/status in KiB.
func processMemoryKiB(_ pid: Int32, _ field: String) -> Int? {
    guard let text = readSmallFile("/proc/\(pid)/status") else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
        return Int(line.dropFirst(field.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
    }
    return nil
}

func readSmallFile(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count <= 0 { break }
        bytes += chunk[0..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
}

let clockTicksPerSecond = Int64(sysconf(Int32(_SC_CLK_TCK)))
