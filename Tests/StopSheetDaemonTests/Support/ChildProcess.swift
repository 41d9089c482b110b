import CLinux
import Glibc
import Posix
import StopSheetDaemon

/// A child process started with `posix_spawn` and reaped with `waitpid`. Foundation's `Process`
/// once missed a daemon's exit under ThreadSanitizer (`waitUntilExit` waited on a child that was
/// long gone), and a hung suite is worse than a failed one: this has no run loop in the way.
final class ChildProcess: Sendable {
    let pid: pid_t
    /// The exit status once reaped (128 + N for a signal N, as shells report it).
    private let exitStatus = Locked<Int32?>(nil)

    /// Starts `executable`; `stdin`/`stdout`/`stderr` are descriptors to hand over (nil: /dev/null).
    /// The child starts with no signals blocked, whatever this thread blocks.
    init(_ executable: String, _ arguments: [String], environment: [String: String],
         stdin: Int32? = nil, stdout: Int32? = nil, stderr: Int32? = nil) throws
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, source) in [(Int32(0), stdin), (1, stdout), (2, stderr)] {
            if let source {
                posix_spawn_file_actions_adddup2(&actions, source, target)
            } else {
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child = pid_t()
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard result == 0 else { throw TestFailure("posix_spawn \(executable): \(Errno(result))") }
        pid = child
        // Not reaped before this (only `wait` reaps), so the pid is still this child's.
        let pidfd = clinux_pidfd_open(child)
        exited = pidfd >= 0 ? Descriptor(adopting: pidfd) : nil
    }

    /// Blocks until the child exits; returns its exit status.
    @discardableResult
    func wait() -> Int32 {
        exitStatus.withLock { status in
            if let status { return status }
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
            let decoded = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
            status = decoded
            return decoded
        }
    }

    /// A pidfd of the child, made at spawn: it polls readable once the child has exited, so a
    /// bounded wait is a wait on that event, not a loop of `waitpid(WNOHANG)` and sleeps. -1 if
    /// the kernel has no pidfd_open (before 5.3); `wait(seconds:)` then says so and fails.
    private let exited: Descriptor?

    /// Waits up to `seconds` for the child to exit; nil if it is still running then.
    func wait(seconds: Double) -> Int32? {
        if !isRunning { return wait() }
        guard let exited else { preconditionFailure("pidfd_open failed for pid \(pid): the tests need Linux 5.3 or later") }
        let deadline = SystemClock.monotonicMilliseconds() + Int64(seconds * 1000)
        var entry = pollfd(fd: exited.raw, events: Int16(POLLIN), revents: 0)
        while true {
            let left = deadline - SystemClock.monotonicMilliseconds()
            let ready = poll(&entry, 1, Int32(clamping: max(0, left)))
            if ready > 0 { return wait() }
            if ready < 0, errno == EINTR { continue }
            return isRunning ? nil : wait()
        }
    }

    var isRunning: Bool {
        exitStatus.withLock { status in
            guard status == nil else { return false }
            var raw: Int32 = 0
            guard waitpid(pid, &raw, WNOHANG) == pid else { return true }
            status = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
            return false
        }
    }

    func signal(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }
}
