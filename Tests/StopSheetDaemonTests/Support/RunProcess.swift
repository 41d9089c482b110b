import Foundation
import Glibc
import Posix
import StopSheetDaemon

/// What a finished command printed and how it exited.
struct ProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs a command to completion, feeding `input` on its stdin (then end of input); `environment`
/// replaces the test process's own.
func runProcess(_ executable: String, _ arguments: [String], input: String? = nil,
                environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ProcessResult {
    let stdin = try PipePair(), stdout = try PipePair(), stderr = try PipePair()
    let child = try ChildProcess(executable, arguments, environment: environment,
                                 stdin: stdin.read, stdout: stdout.write, stderr: stderr.write)
    stdin.closeRead()
    stdout.closeWrite()
    stderr.closeWrite()
    if let input { stdin.writeAll(Array(input.utf8)) }
    stdin.closeWrite()
    // Both pipes are drained before waiting, so a chatty command cannot block on a full pipe.
    let errorText = Locked<[UInt8]>([])
    let errorDone = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        let bytes = stderr.readAll()
        errorText.withLock { $0 = bytes }
        errorDone.signal()
    }
    let outputText = stdout.readAll()
    errorDone.wait()
    let status = child.wait()
    stdout.closeRead()
    stderr.closeRead()
    return ProcessResult(status: status, stdout: String(decoding: outputText, as: UTF8.self),
                         stderr: String(decoding: errorText.withLock { $0 }, as: UTF8.self))
}

/// A pipe whose ends are closed once each (`Descriptor`), from whichever thread.
final class PipePair: Sendable {
    private let readEnd: Descriptor
    private let writeEnd: Descriptor
    var read: Int32 { readEnd.raw }
    var write: Int32 { writeEnd.raw }

    init() throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw TestFailure("pipe: \(Errno.current)") }
        (readEnd, writeEnd) = (Descriptor(adopting: fds[0]), Descriptor(adopting: fds[1]))
        // Close-on-exec, so other children never hold these ends open (the spawned command gets
        // its ends by dup2, which clears the flag).
        for fd in fds { try DescriptorFlags.setCloseOnExec(fd) }
    }

    func closeRead() { readEnd.close() }
    func closeWrite() { writeEnd.close() }

    func writeAll(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.write(write, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            offset += count
        }
    }

    func readAll() -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(read, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return bytes }
            bytes += chunk[0..<count]
        }
    }
}
