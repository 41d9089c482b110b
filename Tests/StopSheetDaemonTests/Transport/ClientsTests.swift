#if canImport(Glibc)
import Glibc
#endif
import Posix
import Testing
@testable import StopSheetDaemon

/// The loop's book-keeping of its clients on its own: who is turned away, and who is idle, with
/// connections whose handler knows no JSON-RPC (`EventLoopTests.EchoLines`).
@Suite struct ClientsTests {
    typealias Echo = EventLoopTests.EchoLines

    private func peer(_ uid: UInt32) -> PeerCredentials { PeerCredentials(pid: 1, uid: uid, gid: uid) }

    /// A connection on `socket`, or on an eventfd of its own: a real descriptor the connection
    /// owns and closes, never a made-up number (closing that would close a stranger's).
    private func connection(socket: Descriptor? = nil, uid: UInt32, now: Int64 = 0) throws -> Connection<Echo> {
        Connection(socket: try socket ?? Descriptor(adopting: EventFD.open()), generation: 1, peer: peer(uid), handler: Echo(peer: peer(uid), host: Echo.Host(), resume: { _ in }, wake: {}),
                   maxLineBytes: 64, registeredEvents: 0, now: now)
    }

    /// A connection closed while held back over budget no longer counts as held back, nor does
    /// one closed that never was: the loop looks for connections to resume only while some is.
    @Test func aClosedConnectionIsNoLongerHeldBack() throws {
        var clients = Clients<Echo>(limits: ServerLimits())
        let (held, free) = (try connection(uid: 1000), try connection(uid: 1000))
        clients.add(held)
        clients.add(free)
        clients.setPausedForBudget(held, true)
        #expect(clients.anyPausedForBudget)
        #expect(clients.remove(held) && !clients.anyPausedForBudget)
        #expect(clients.remove(free) && !clients.anyPausedForBudget)
    }

    @Test func theReservedSlotsAreRootsAndTheShareOfAUIDIsCapped() throws {
        var limits = ServerLimits()
        (limits.maxConnections, limits.reservedConnections, limits.maxConnectionsPerUID) = (4, 1, 2)
        var clients = Clients<Echo>(limits: limits)
        let (user, other): (UInt32, UInt32) = (1000, 1001)
        let first = try connection(uid: user)
        let second = try connection(uid: user)
        clients.add(first)
        clients.add(second)
        #expect(clients.refusal(of: peer(user)) == .perUID(user, limit: 2))
        #expect(clients.refusal(of: peer(other)) == nil)
        clients.add(try connection(uid: other))
        #expect(clients.refusal(of: peer(other)) == .reserved(1), "the last slot is root's")
        #expect(clients.refusal(of: peer(0)) == nil)
        let admin = try connection(uid: 0)
        clients.add(admin)
        #expect(clients.refusal(of: peer(0)) == .full)
        let (removed, removedAgain, removedFirst) = (clients.remove(admin), clients.remove(admin), clients.remove(first))
        #expect(removed && !removedAgain && removedFirst, "each counted out once")
        #expect(clients.count == 2 && clients.refusal(of: peer(user)) == nil, "one of its two slots is free again")
        #expect(clients[admin.fd] == nil && clients[second.fd] === second && clients[admin.fd + 1000] == nil && clients[-1] == nil)
        #expect(clients[Int32(clients.byFD.count)] == nil, "just past the end of the table")
    }

    @Test func aWholeLineTakenIsActivityAndAWaitingHandlerIsNeverIdle() throws {
        var limits = ServerLimits()
        limits.idleTimeout = .seconds(10)
        let clients = Clients<Echo>(limits: limits)
        var fds: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        defer { close(fds[1]) }
        let connection = try connection(socket: Descriptor(adopting: fds[0]), uid: 1000)
        let second: Int64 = 1_000_000_000

        connection.input.append("part".utf8)
        _ = connection.answer(allowance: 1 << 20, now: 5 * second)
        #expect(clients.timedOut(connection, now: 10 * second) == .idle, "a byte that completes no line is not activity")

        connection.input.append("ial\n".utf8)
        _ = connection.answer(allowance: 1 << 20, now: 8 * second)
        guard case .ok = connection.flush(now: 8 * second) else { Issue.record("the socket pair took no answer"); return }
        #expect(connection.unsent == 0)
        #expect(clients.timedOut(connection, now: 17 * second) == nil, "the line taken at 8 s is activity")
        #expect(clients.timedOut(connection, now: 18 * second) == .idle)

        connection.input.append("later\n".utf8)
        _ = connection.answer(allowance: 1 << 20, now: 8 * second)
        #expect(connection.handler.isWaiting && connection.unsent == 0)
        #expect(clients.timedOut(connection, now: 60 * second) == nil, "waiting on its own deferred answer is not the client's silence")
    }

    /// The default idle timeout, 0, closes nobody for being quiet, however long: the loop's own
    /// clock set by hand to a year on (LimitsIntegrationTests shows the same on the binary).
    @Test func withoutAnIdleTimeoutAQuietConnectionStays() throws {
        let clients = Clients<Echo>(limits: ServerLimits())
        let connection = try connection(uid: 1000, now: 0)
        let year: Int64 = 365 * 86_400 * 1_000_000_000
        #expect(clients.timedOut(connection, now: year) == nil)
    }

    /// The memory budget: at exactly `maxBufferedBytes` held the loop is over it, and then reads
    /// a little at a time, answers only connections owed nothing, and holds back every connection
    /// holding bytes but the one let through; with nothing unsent anywhere, the first connection
    /// holding part of a line is let through, until it holds none.
    @Test func atTheBudgetTheLoopHoldsBackAllButOneConnectionHoldingPartOfALine() throws {
        var limits = ServerLimits()
        (limits.maxBufferedBytes, limits.maxOutputBytes) = (10, 100)
        var clients = Clients<Echo>(limits: limits)
        let (empty, first, second) = (try connection(uid: 1000), try connection(uid: 1000), try connection(uid: 1000))
        for each in [empty, first, second] { clients.add(each) }
        first.input.append("four".utf8)
        second.input.append("fives".utf8)
        clients.account(first)
        clients.account(second)
        #expect(!clients.overBudget && clients.readSize(of: 65_536) == 65_536 && clients.outputAllowance == 100, "9 bytes of 10")
        #expect(!clients.holdsBack(first) && clients.letOneThroughIfStalled() == nil, "under the budget nobody is let through")

        second.input.append("!".utf8)
        clients.account(second)
        #expect(clients.overBudget && clients.readSize(of: 65_536) == 4096 && clients.outputAllowance == 0, "10 bytes of 10")
        #expect(clients.holdsBack(first) && clients.holdsBack(second) && !clients.holdsBack(empty), "one holding nothing is not held back")

        let through = clients.letOneThroughIfStalled()
        #expect(through === first && clients.letThrough === first, "the first holding part of a line, in fd order")
        #expect(!clients.holdsBack(first) && clients.holdsBack(second))
        #expect(clients.letOneThroughIfStalled() == nil, "one at a time")

        first.input.append("\n".utf8)
        _ = first.input.next()
        clients.account(first)
        #expect(clients.letThrough == nil, "its line whole and taken: held back like the others again")
        #expect(!clients.overBudget, "and the total under the budget")
    }
}
