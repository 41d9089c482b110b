import Foundation
import Posix
import Testing
@testable import StopSheetDaemon

/// Serialized: binding narrows the process's umask for a moment, so a directory another test
/// makes meanwhile came out group-writable (0775), which the socket-directory check then refused.
@Suite(.serialized) struct ListenerTests {
    private func withDirectory(_ body: (String) throws -> Void) throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try body(directory)
    }

    private func mode(_ path: String) -> mode_t {
        var info = stat()
        guard lstat(path, &info) == 0 else { return 0 }
        return info.st_mode & 0o7777
    }

    /// The umask is the process's: binds on several threads at once each get 0660, and the
    /// process's umask is what it was (before the fix one socket in a few hundred came out 0640).
    @Test func bindsOnManyThreadsAtOnceEachGet0660AndTheUmaskStays() throws {
        try withDirectory { directory in
            let umaskBefore = umask(0o022)
            defer { umask(umaskBefore) }
            let wrong = Locked<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 8) { thread in
                for index in 0..<50 {
                    let path = directory + "/\(thread)-\(index).sock"
                    do {
                        let fd = try bindUnixListener(path: path)
                        close(fd)
                        let got = mode(path)
                        if got != 0o660 { wrong.withLock { $0.append("\(path): \(String(got, radix: 8))") } }
                    } catch {
                        wrong.withLock { $0.append("\(path): \(error)") }
                    }
                }
            }
            #expect(wrong.withLock { $0 }.isEmpty, "\(wrong.withLock { $0 }.prefix(5))")
            #expect(umask(0o022) == 0o022, "the process's umask changed")
        }
    }

    @Test func bindsWithMode0660AndRefusesToMakeDirectoriesOutsideRun() throws {
        try withDirectory { directory in
            let path = directory + "/run/stopsheetd/s.sock"
            #expect(throws: ListenerError.missingDirectory(path: directory + "/run/stopsheetd")) { try bindUnixListener(path: path) }
            #expect(access(directory + "/run", F_OK) != 0, "nothing made on the way")
            try FileManager.default.createDirectory(atPath: directory + "/run/stopsheetd", withIntermediateDirectories: true)
            let fd = try bindUnixListener(path: path)
            defer { close(fd) }
            #expect(mode(path) == 0o660)
            #expect(fcntl(fd, F_GETFL) & O_NONBLOCK != 0)
            #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0)
            _ = try TestClient(path: path)
        }
    }

    /// A socket's directory is the path up to its last slash, which for one in `/` is `/`
    /// itself, and for a relative path without a slash the working directory: both exist, so
    /// neither is refused as missing.
    @Test func aSocketInTheRootDirectoryOrTheWorkingOneHasADirectory() throws {
        try checkSocketPath("/stopsheetd.sock")
        try checkSocketPath("stopsheetd.sock")
        #expect(throws: ListenerError.missingDirectory(path: "/no-such-directory")) { try checkSocketPath("/no-such-directory/s.sock") }
    }

    /// At exit the daemon removes its socket file only if the path still holds it: not a file of
    /// another kind put there since, nor another socket bound there since.
    @Test func theBoundSocketIsRemovedOnlyWhileItIsStillThere() throws {
        try withDirectory { directory in
            let path = directory + "/s.sock"
            close(try bindUnixListener(path: path))
            let bound = try #require(BoundSocketFile(path: path))
            #expect(BoundSocketFile(path: directory) == nil, "a directory is no socket")
            // Another daemon's socket at the same path: a file of its own (the first one kept,
            // moved aside, so that its inode is not free for the new one to take).
            #expect(rename(path, directory + "/moved.sock") == 0)
            close(try bindUnixListener(path: path))
            #expect(!bound.removeIfUnchanged() && access(path, F_OK) == 0)
            unlink(path)
            #expect(FileManager.default.createFile(atPath: path, contents: Data("keep".utf8)))
            #expect(BoundSocketFile(path: path) == nil, "a regular file is no socket")
            #expect(!bound.removeIfUnchanged() && access(path, F_OK) == 0)
            unlink(path)
            close(try bindUnixListener(path: path))
            #expect(try #require(BoundSocketFile(path: path)).removeIfUnchanged() && access(path, F_OK) != 0)
        }
    }

    /// The documented layout's runtime directory, `/run/NAME`, is made as systemd would (0755).
    @Test(.enabled(if: geteuid() == 0 && access("/run", W_OK) == 0, "needs a writable /run"))
    func makesARuntimeDirectoryDirectlyInRunWith0755() throws {
        let directory = "/run/ssd-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fd = try bindUnixListener(path: directory + "/s.sock")
        defer { close(fd) }
        #expect(mode(directory) == 0o755)
        #expect(mode(directory + "/s.sock") == 0o660)
    }

    @Test func removesAStaleSocketNobodyAnswersOn() throws {
        try withDirectory { directory in
            let path = directory + "/s.sock"
            // A crashed daemon's leftover: the file exists, nothing listens.
            close(try boundUnixSocket(at: path))
            #expect(mode(path) != 0)

            let fd = try bindUnixListener(path: path)
            defer { close(fd) }
            _ = try TestClient(path: path)
        }
    }

    @Test func refusesASocketInUseAndLeavesItAlone() throws {
        try withDirectory { directory in
            let path = directory + "/s.sock"
            let first = try bindUnixListener(path: path)
            defer { close(first) }
            #expect(throws: ListenerError.inUse(path: path)) { try bindUnixListener(path: path) }
            _ = try TestClient(path: path)  // the first server still owns it
        }
    }

    /// A live server whose backlog is full does not accept the probe's connection at once: the
    /// probe must not wait for it (a start would hang), and the socket is in use all the same.
    @Test func aLiveServerWithAFullBacklogIsInUseWithoutWaiting() throws {
        try withDirectory { directory in
            let path = directory + "/s.sock"
            let server = try boundUnixSocket(at: path)
            defer { close(server) }
            #expect(listen(server, 0) == 0)
            let address = try UnixSocketAddress(path: path)
            var waiting: [Int32] = []
            defer { waiting.forEach { close($0) } }
            // Connections nobody accepts, until the next one would have to wait.
            while waiting.count < 64 {
                let client = try UnixSocket.open(.stream, nonBlocking: true)
                waiting.append(client)
                do throws(Errno) { try UnixSocket.connect(client, to: address) } catch {
                    #expect(error.code == EAGAIN, "\(error)")
                    break
                }
            }
            #expect(throws: ListenerError.inUse(path: path)) { try bindUnixListener(path: path) }
            #expect(BoundSocketFile(path: path) != nil, "left alone")
        }
    }

    /// The socket's directory must be one nobody else can swap the socket in: one its group may
    /// write to is refused; one everybody may write to but sticky (as /tmp is) is not, since there
    /// only the socket's owner may remove it. Another user's directory is refused too (below).
    @Test func refusesADirectoryItsGroupMayWriteButNotAStickyOne() throws {
        try withDirectory { directory in
            let path = directory + "/s.sock"
            #expect(chmod(directory, 0o770) == 0)
            #expect(throws: ListenerError.untrustedDirectory(path: directory, reason: "is writable by its group (mode 770) and not sticky")) {
                try bindUnixListener(path: path)
            }
            #expect(chmod(directory, 0o1777) == 0)
            close(try bindUnixListener(path: path))
        }
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to give a directory away"))
    func refusesADirectoryAnotherUserOwns() throws {
        try withDirectory { directory in
            let path = directory + "/s.sock"
            let stranger: uid_t = 4242
            #expect(chown(directory, stranger, gid_t(stranger)) == 0)
            #expect(throws: ListenerError.untrustedDirectory(path: directory, reason: "is owned by uid \(stranger), not by this user (uid \(DaemonUser.uid)) or root")) {
                try bindUnixListener(path: path)
            }
        }
    }

    @Test func refusesToDeleteAFileThatIsNotASocket() throws {
        try withDirectory { directory in
            let path = directory + "/s.sock"
            try "precious".write(toFile: path, atomically: false, encoding: .utf8)
            #expect(throws: ListenerError.notASocket(path: path)) { try bindUnixListener(path: path) }
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "precious")
        }
    }

    @Test func refusesPathsLongerThanSunPath() throws {
        let path = "/tmp/" + String(repeating: "p", count: 200) + ".sock"
        #expect(throws: ListenerError.pathTooLong(path: path, limit: 107)) { try bindUnixListener(path: path) }
    }
}
