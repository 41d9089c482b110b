import Foundation
import Glibc
import Posix
import Testing

/// `DirectoryWatch`: told by inotify that something appeared on the way to a path, without a
/// sleep loop. Each wait here is answered by a change made before it, so none blocks.
@Suite struct DirectoryWatchTests {
    @Test func aChangeInTheNearestExistingDirectoryWakesTheWait() throws {
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let watch = try DirectoryWatch(for: root + "/run/stopsheetd/stopsheetd.sock")
        try watch.arm()
        #expect(!watch.wait(milliseconds: 0), "nothing changed yet")
        // The socket's directory is two levels short: the root is watched, and its new child tells.
        #expect(mkdir(root + "/run", 0o755) == 0)
        #expect(watch.wait(milliseconds: 10_000))
        #expect(!watch.wait(milliseconds: 0), "each event is read once")
        // Armed again, the nearest existing directory is now run/.
        try watch.arm()
        #expect(mkdir(root + "/run/stopsheetd", 0o755) == 0)
        #expect(watch.wait(milliseconds: 10_000))
        try watch.arm()
        #expect(FileManager.default.createFile(atPath: root + "/run/stopsheetd/stopsheetd.sock", contents: nil))
        #expect(watch.wait(milliseconds: 10_000))
    }

    @Test(arguments: [("/run/x.sock", "/run"), ("/x.sock", "/"), ("x.sock", "."), ("a/b/", "a"), ("/", "/")])
    func parentOf(_ path: String, _ parent: String) {
        #expect(DirectoryWatch.parent(of: path) == parent)
    }
}
