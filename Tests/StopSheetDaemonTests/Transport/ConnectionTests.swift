#if canImport(Glibc)
import Glibc
#endif
import Posix
import Testing
@testable import StopSheetDaemon

/// One connection's own book-keeping over a real socket pair, with the loop's clock given by
/// hand: since when it owes answers (what the stuck timeout measures) and when its client was
/// last active (what the idle timeout measures). A slow reader that keeps taking answers is not
/// stuck; one that takes nothing is, from the first answer it left unsent.
@Suite struct ConnectionTests {
    typealias Echo = EventLoopTests.EchoLines

    private static let second: Int64 = 1_000_000_000

    /// A connection on one end of a non-blocking socket pair whose send buffer is small; the
    /// other end, which the test reads as the client (and closes).
    private static func connection(limits: ServerLimits = ServerLimits()) throws -> (Connection<Echo>, client: Int32) {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0, &fds) == 0 else { throw Errno(errno) }
        var size: Int32 = 4096
        setsockopt(fds[0], SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        let peer = PeerCredentials(pid: 1, uid: 1000, gid: 1000)
        let connection = Connection(socket: Descriptor(adopting: fds[0]), generation: 1, peer: peer,
                                    handler: Echo(peer: peer, host: Echo.Host(), resume: { _ in }, wake: {}),
                                    maxLineBytes: limits.maxLineBytes, registeredEvents: 0, now: 0)
        return (connection, fds[1])
    }

    /// Reads up to `limit` bytes the connection sent; how many it read.
    @discardableResult
    private static func take(_ fd: Int32, upTo limit: Int = .max) -> Int {
        var chunk = [UInt8](repeating: 0, count: 4096)
        var taken = 0
        while taken < limit {
            let count = read(fd, &chunk, min(chunk.count, limit - taken))
            guard count > 0 else { break }
            taken += count
        }
        return taken
    }

    @Test func answersAreOwedSinceTheLastByteTheClientTookAndNoLongerOnceAllIsSent() throws {
        var limits = ServerLimits()
        limits.stuckTimeout = .seconds(10)
        let clients = Clients<Echo>(limits: limits)
        let (connection, client) = try Self.connection(limits: limits)
        defer { close(client) }
        let second = Self.second

        guard case .ok = connection.flush(now: 1 * second) else { Issue.record("a flush of nothing failed"); return }
        #expect(connection.owedSince == nil, "nothing to send is nothing owed")

        connection.output.append(shared: [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20))
        guard case .ok = connection.flush(now: 2 * second) else { Issue.record("the first send failed"); return }
        #expect(connection.unsent > 0, "the socket took a megabyte at once: nothing is owed")
        #expect(connection.owedSince == 2 * second && connection.lastActivity == 2 * second, "sent in part at 2 s")

        guard case .ok = connection.flush(now: 3 * second) else { Issue.record("a send into a full socket failed"); return }
        #expect(connection.owedSince == 2 * second, "the client took nothing since 2 s: owed since then")
        #expect(connection.lastActivity == 2 * second, "a send the socket did not take is no activity")
        #expect(clients.timedOut(connection, now: 11 * second) == nil)
        #expect(clients.timedOut(connection, now: 12 * second) == .stuck, "owed for the whole stuck timeout")

        #expect(Self.take(client, upTo: 8192) > 0)
        guard case .ok = connection.flush(now: 5 * second) else { Issue.record("the send after a read failed"); return }
        #expect(connection.unsent > 0 && connection.owedSince == 5 * second, "a client that takes some answers is not stuck: owed since its last take")
        #expect(connection.lastActivity == 5 * second)
        #expect(clients.timedOut(connection, now: 14 * second) == nil)

        while connection.unsent > 0 {
            Self.take(client)
            guard case .ok = connection.flush(now: 7 * second) else { Issue.record("a send failed with \(connection.unsent) left"); return }
        }
        #expect(connection.owedSince == nil, "everything sent: nothing owed")
        #expect(clients.timedOut(connection, now: 100 * second) == nil, "nothing owed is never stuck (no idle timeout set)")
    }

    /// Quiet is owing nothing either way, what a half-closed or draining connection waits for
    /// before it is closed: each of a part of a line held, a deferred answer outstanding and an
    /// answer unsent alone keeps it open.
    @Test func aConnectionIsQuietOnlyWhenItOwesNothingEitherWay() throws {
        let (connection, client) = try Self.connection()
        defer { close(client) }
        #expect(connection.isQuiet, "new: nothing held")

        connection.input.append("par".utf8)
        _ = connection.answer(allowance: 1 << 20, now: 0)
        #expect(!connection.isQuiet && !connection.handler.isWaiting && connection.unsent == 0, "part of a line held")

        connection.input.append("t\nlater\n".utf8)
        _ = connection.answer(allowance: 1 << 20, now: 0)
        #expect(connection.handler.isWaiting && !connection.input.hasBufferedBytes && connection.unsent > 0)
        guard case .ok = connection.flush(now: 0) else { Issue.record("the socket pair took no answer"); return }
        #expect(connection.unsent == 0 && !connection.isQuiet, "a deferred answer outstanding, nothing else")

        _ = connection.handler.resume(Echo.Resumption(token: 1, line: "later"), into: &connection.output)
        #expect(!connection.handler.isWaiting && connection.unsent > 0 && !connection.isQuiet, "an answer unsent, nothing else")
        guard case .ok = connection.flush(now: 0) else { Issue.record("the socket pair took no answer"); return }
        #expect(connection.isQuiet, "all answered and sent")
    }

    /// A client gone is a failure of the flush, never a loop or a success.
    @Test func aFlushToAClientThatLeftFails() throws {
        let (connection, client) = try Self.connection()
        close(client)
        connection.output.write(Array("answer\n".utf8))
        guard case .failed(let code) = connection.flush(now: Self.second) else {
            Issue.record("a flush to a closed peer did not fail")
            return
        }
        #expect(code == EPIPE || code == ECONNRESET, "errno \(code)")
    }

    /// One read takes what the client sent into the input; an empty socket would block; the
    /// client's end of sending is the end of input, remembered (`readClosed`): answer, then close.
    @Test func aReadTakesDataThenWouldBlockAndTheClientsEndIsRemembered() throws {
        let (connection, client) = try Self.connection()
        var scratch = [UInt8](repeating: 0, count: 64)
        let read = { scratch.withUnsafeMutableBytes { connection.read(into: $0) } }
        _ = "ab\n".withCString { write(client, $0, 3) }
        guard case .data(3) = read() else { Issue.record("the three bytes sent were not read"); return }
        #expect(connection.input.bufferedByteCount == 3 && !connection.readClosed)
        guard case .wouldBlock = read() else { Issue.record("an empty socket did not say it would block"); return }
        #expect(!connection.readClosed)
        close(client)
        guard case .endOfInput = read() else { Issue.record("the client's close was not the end of input"); return }
        #expect(connection.readClosed && connection.input.bufferedByteCount == 3, "the line read before the end is kept")
    }

    /// On the tick, a connection that sent nothing since the previous tick gives back a big
    /// output allocation; one active at that very instant or later keeps it for its next answers.
    @Test func aBigOutputBufferIsGivenBackOnlyByAConnectionQuietSinceTheLastTick() throws {
        let (connection, client) = try Self.connection()
        defer { close(client) }
        connection.output.write([UInt8](repeating: UInt8(ascii: "a"), count: OutputBuffer.idleCapacity + 1))
        while connection.unsent > 0 {
            Self.take(client)
            guard case .ok = connection.flush(now: 3 * Self.second) else { Issue.record("a send failed"); return }
        }
        #expect(connection.lastActivity == 3 * Self.second && connection.output.capacity > OutputBuffer.idleCapacity)
        connection.releaseIdleBuffer(quietSince: 3 * Self.second)
        #expect(connection.output.capacity > OutputBuffer.idleCapacity, "active at the tick itself: kept")
        connection.releaseIdleBuffer(quietSince: 3 * Self.second + 1)
        #expect(connection.output.capacity == 0, "quiet since before the tick: given back")
    }
}
