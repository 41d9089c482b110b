import Foundation
import Glibc
import StopSheetDaemon
import Testing

/// Which sink the daemon logs to: journald's records only when its socket is there and stderr
/// is no terminal (a service); stderr otherwise (a developer's terminal, a system without
/// journald). And on stderr, the `<priority>` prefix only when `JOURNAL_STREAM` names the file
/// stderr is.
@Suite struct LogSinkChoiceTests {
    @Test func theJournalOnlyWhenItsSocketIsThereAndStderrIsNoTerminal() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // access(F_OK) asks only whether the path exists: a file stands for the socket.
        let socket = directory + "/socket", missing = directory + "/none"
        #expect(FileManager.default.createFile(atPath: socket, contents: Data()))
        let notATerminal = open("/dev/null", O_WRONLY)
        // A pseudo-terminal's master side is a terminal as stderr on a console is.
        let terminal = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        defer { close(notATerminal); close(terminal) }
        try #require(notATerminal >= 0 && terminal >= 0)
        #expect(makeDefaultLogSink(journalSocket: socket, stderr: notATerminal) is JournalLogSink)
        #expect(makeDefaultLogSink(journalSocket: socket, stderr: terminal) is StderrLogSink)
        #expect(makeDefaultLogSink(journalSocket: missing, stderr: notATerminal) is StderrLogSink)
        #expect(makeDefaultLogSink(journalSocket: missing, stderr: terminal) is StderrLogSink)
    }

    @Test func stderrIsTheJournalWhenJournalStreamNamesItsDeviceAndInode() throws {
        var info = stat()
        try #require(fstat(2, &info) == 0)
        let device = UInt64(info.st_dev), inode = UInt64(info.st_ino)
        #expect(StderrLogSink.stderrIsTheJournal("\(device):\(inode)"))
        // Another file (a variable a child inherited), no variable, or not DEVICE:INODE.
        #expect(!StderrLogSink.stderrIsTheJournal("\(device):\(inode + 1)"))
        #expect(!StderrLogSink.stderrIsTheJournal("\(device + 1):\(inode)"))
        #expect(!StderrLogSink.stderrIsTheJournal(nil))
        #expect(!StderrLogSink.stderrIsTheJournal(""))
        #expect(!StderrLogSink.stderrIsTheJournal("\(device):\(inode):0"))
        #expect(!StderrLogSink.stderrIsTheJournal("\(device)"))
        #expect(!StderrLogSink.stderrIsTheJournal("\(device):x"))
    }
}
