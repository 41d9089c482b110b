
import Glibc
import Posix
import StopSheetClient

/// `launch --samples N --log FILE -- stopsheetd …`: times exec → `READY=1` through a private
/// `NOTIFY_SOCKET`, N times; stops all but the last instance and leaves that one serving.
/// Prints `ready_ms=<median> ready_min_ms=… ready_max_ms=… pid=…`.
func runLaunch(_ options: Options) {
    let command = options.rest
    guard !command.isEmpty else { fail("launch needs a command after --") }
    let samples = max(1, options.int("samples", 5))
    let log = options.string("log", "/dev/null")
    var times: [Double] = []
    var pid: pid_t = 0
    for sample in 0..<samples {
        let notifyPath = "/tmp/stopsheet-bench-notify-\(getpid())"
        let notify = bindUnix(notifyPath, .datagram)
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(notify, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))

        let environment = processEnvironmentLines().filter { !$0.hasPrefix("NOTIFY_SOCKET=") } + ["NOTIFY_SOCKET=\(notifyPath)"]
        let started = monotonicNanos()
        pid = spawn(command, environment: environment, log: log)
        var datagram = [UInt8](repeating: 0, count: 4096)
        var ready = false
        while !ready {
            let count = datagram.withUnsafeMutableBytes { recv(notify, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { fail("no READY=1 within 10 s (see \(log))") }
            ready = String(decoding: datagram[0..<count], as: UTF8.self).split(separator: "\n").contains("READY=1")
        }
        times.append(Double(monotonicNanos() - started) / 1e6)
        close(notify)
        unlink(notifyPath)
        if sample < samples - 1 {
            kill(pid, SIGTERM)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
    }
    let sorted = times.sorted()
    print("ready_ms=\(format(sorted[sorted.count / 2], 2)) ready_min_ms=\(format(sorted.first!, 2)) ready_max_ms=\(format(sorted.last!, 2)) pid=\(pid)")
}

private func spawn(_ command: [String], environment: [String], log: String) -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    let argv = command.map { strdup($0) } + [nil]
    let envp = environment.map { strdup($0) } + [nil]
    defer {
        for pointer in argv { free(pointer) }
        for pointer in envp { free(pointer) }
    }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, command[0], &actions, nil, argv, envp)
    guard result == 0 else { fail("cannot start \(command[0]): \(result)") }
    return pid
}

private func processEnvironmentLines() -> [String] {
    var lines: [String] = []
    var entry = environ
    while let pointer = entry.pointee {
        lines.append(String(cString: pointer))
        entry += 1
    }
    return lines
}

/// `prime-redis --daemon SOCK --redis SOCK --key K --id N --stop-id S`: asks stopsheetd for the
/// stop sheet once and stores that exact answer line (newline included) in Redis, so both
/// servers send the same bytes. Prints `bytes=<size>`.
func runPrimeRedis(_ options: Options) {
    let id = options.int("id", 1000000)
    let stopID = options.string("stop-id", "40380")
    // The exact bytes matter here, so the raw line connection rather than the typed client.
    let answer: [UInt8]
    do {
        let daemon = try LineConnection(socketPath: options.string("daemon"), sendTimeout: .seconds(10))
        try daemon.send(Array(#"{"jsonrpc":"2.0","id":\#(id),"method":"stopSheet","params":{"stopId":"\#(stopID)"}}"#.utf8) + [0x0A])
        answer = try daemon.readLine(timeout: .seconds(10)) + [0x0A]
    } catch {
        fail("stopsheetd: \(error)")
    }
    guard answer.starts(with: Array(#"{"jsonrpc":"2.0","id":\#(id),"result":"#.utf8)) else { fail("unexpected answer from stopsheetd") }

    let key = options.string("key", "sheet")
    let redis = connectUnix(options.string("redis"), blocking: true)
    writeAll(redis, Array("*3\r\n$3\r\nSET\r\n$\(key.utf8.count)\r\n\(key)\r\n$\(answer.count)\r\n".utf8) + answer + Array("\r\n".utf8))
    let reply = readUntil(redis) { $0.count >= 2 && $0.suffix(2) == [0x0D, 0x0A] }
    guard reply == Array("+OK\r\n".utf8) else { fail("Redis SET answered \(String(decoding: reply, as: UTF8.self))") }
    writeAll(redis, Array("*2\r\n$3\r\nGET\r\n$\(key.utf8.count)\r\n\(key)\r\n".utf8))
    let header = Array("$\(answer.count)\r\n".utf8)
    let stored = readUntil(redis) { $0.count >= header.count + answer.count + 2 }
    close(redis)
    guard Array(stored.dropFirst(header.count).prefix(answer.count)) == answer else { fail("Redis GET did not return the stored bytes") }
    print("bytes=\(answer.count)")
}
