import Foundation
import Synchronization

/// What a finished command printed and how it exited.
struct ProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs a command to completion, feeding `input` on its stdin (then end of input).
func runProcess(_ executable: String, _ arguments: [String], input: String? = nil) throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let out = Pipe(), err = Pipe(), stdin = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input == nil ? FileHandle.nullDevice : stdin
    try process.run()
    if let input {
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
    }
    // Both pipes are drained before waiting, so a chatty command cannot block on a full pipe.
    let stderrData = Mutex<Data>(Data())
    let stderrRead = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        stderrData.withLock { $0 = err.fileHandleForReading.readDataToEndOfFile() }
        stderrRead.signal()
    }
    let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
    stderrRead.wait()
    process.waitUntilExit()
    return ProcessResult(status: process.terminationStatus, stdout: String(decoding: stdoutData, as: UTF8.self),
                         stderr: String(decoding: stderrData.withLock { $0 }, as: UTF8.self))
}
