import Foundation
import Glibc
import StopSheetDaemon
import Testing

/// Waits for what a process writes to files, by inotify rather than by looking again after a
/// sleep: a socket bound, a log line written (the daemon's stderr, strace's trace), a file made.
///
/// `look` is asked once at once, then again after each change inotify reports in `directory`
/// (a file made, written, closed, moved in or removed there), until it answers non-nil or
/// `timeout` seconds pass. The watch is set before the first look, so nothing written between a
/// look and the wait goes unseen. The timeout is an upper bound, never a pass condition.
func waitForChange<T>(in directory: String, timeout: Double = patience, _ look: () -> T?) -> T? {
    let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
    guard fd >= 0 else {
        Issue.record("inotify_init1: \(String(cString: strerror(errno)))")
        return look()
    }
    defer { close(fd) }
    let events = UInt32(IN_CREATE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_DELETE | IN_ATTRIB)
    guard inotify_add_watch(fd, directory, events) >= 0 else {
        Issue.record("inotify_add_watch \(directory): \(String(cString: strerror(errno)))")
        return look()
    }
    let deadline = ContinuousClock.now + .milliseconds(Int64(timeout * 1000))
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        if let found = look() { return found }
        let left = (deadline - ContinuousClock.now).components
        let milliseconds = left.seconds * 1000 + left.attoseconds / 1_000_000_000_000_000
        guard milliseconds > 0 else { return nil }
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        if poll(&entry, 1, Int32(clamping: milliseconds)) > 0 {
            while read(fd, &buffer, buffer.count) > 0 {}
        }
    }
}

/// The first line of the file at `path` that `matches`, once written (nil after `timeout`).
func waitForLine(in path: String, timeout: Double = patience, _ matches: @escaping (Substring) -> Bool) -> String? {
    waitForChange(in: (path as NSString).deletingLastPathComponent, timeout: timeout) {
        let text = String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
        // Whole lines only: the last one may still be half written.
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().first(where: matches).map(String.init)
    }
}

/// Opens the FIFO at `path` for writing, which blocks until a reader opens it: the reader's
/// open is the event. Done on a thread so a reader that never comes fails the test after
/// `timeout` seconds instead of hanging the suite (the test then opens the reading end itself to
/// free that thread). The descriptor, or -1.
func openFIFOForWriting(_ path: String, timeout: Double = patience) -> Int32 {
    let opened = DispatchSemaphore(value: 0)
    let writer = Locked<Int32>(-1)
    Thread {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        writer.withLock { $0 = fd }
        opened.signal()
    }.start()
    guard opened.wait(timeout: .now() + timeout) == .timedOut else { return writer.withLock { $0 } }
    let reader = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    defer { if reader >= 0 { close(reader) } }
    opened.wait()
    let late = writer.withLock { $0 }
    defer { if late >= 0 { close(late) } }
    return -1
}
