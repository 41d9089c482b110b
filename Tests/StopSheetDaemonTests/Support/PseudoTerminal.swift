import Glibc
import Posix

/// A pseudo-terminal of a given size, for what programs do when a person is watching: the
/// child gets the slave end as stdout or stderr (a real terminal to `isatty` and `TIOCGWINSZ`),
/// the test reads the master end.
final class PseudoTerminal {
    private let masterEnd: Descriptor
    private var slaveEnd: Descriptor?
    var master: Int32 { masterEnd.raw }
    /// -1 once closed.
    var slave: Int32 { slaveEnd?.raw ?? -1 }

    init(columns: UInt16, rows: UInt16 = 24) throws {
        // /dev/ptmx by hand: Swift's Glibc module does not export posix_openpt/grantpt/ptsname
        // (they need _XOPEN_SOURCE), nor the _IOR-built ioctl numbers, which are Linux's ABI.
        let getNumber: UInt = 0x8004_5430  // TIOCGPTN
        let setLock: UInt = 0x4004_5431  // TIOCSPTLCK
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard master >= 0 else { throw TestFailure("/dev/ptmx: \(Errno.current)") }
        masterEnd = Descriptor(adopting: master)
        var number: UInt32 = 0
        var unlock: Int32 = 0
        guard ioctl(master, setLock, &unlock) == 0, ioctl(master, getNumber, &number) == 0 else {
            throw TestFailure("/dev/ptmx: \(Errno.current)")
        }
        let name = "/dev/pts/\(number)"
        let slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else { throw TestFailure("open \(name): \(Errno.current)") }
        slaveEnd = Descriptor(adopting: slave)
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        guard ioctl(slave, UInt(TIOCSWINSZ), &size) == 0 else { throw TestFailure("TIOCSWINSZ: \(Errno.current)") }
    }

    /// Once the child has its copy: then the master sees the end when the child's copy closes.
    func closeSlave() {
        slaveEnd?.close()
        slaveEnd = nil
    }

    /// The next chunk of output, `\r\n` (the terminal's newline) read as `\n`; nil at the end
    /// (Linux answers EIO once no slave end is open).
    func read() -> String? {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(master, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            return String(decoding: buffer[..<count], as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        }
    }

    func readAll() -> String {
        var text = ""
        while let chunk = read() { text += chunk }
        return text
    }
}

private extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
