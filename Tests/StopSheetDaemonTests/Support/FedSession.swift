import Glibc
import Synchronization
@testable import StopSheetDaemon

/// A session with what its connection would give it: an input to take lines from and an output
/// to answer into, whose bytes come back to the test through a real socket pair, as they would
/// reach a client. The test is the loop, on its thread.
final class FedSession {
    let session: Session
    var input: LineFramer
    private var output = OutputBuffer()
    private let socket: (writer: Descriptor, reader: Descriptor)

    init(host: SessionHost, peer: PeerCredentials = PeerCredentials(pid: 1, uid: 0, gid: 0),
         resume: @escaping @Sendable (Session.Resumption) -> Void = { _ in }) {
        session = Session(peer: peer, host: host, resume: resume)
        input = LineFramer(maxLineBytes: host.limits.maxLineBytes)
        var fds: [Int32] = [-1, -1]
        precondition(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0, &fds) == 0, "socketpair: errno \(errno)")
        socket = (Descriptor(adopting: fds[0]), Descriptor(adopting: fds[1]))
    }

    /// Bytes the client sent, as a read would add them.
    func receive(_ text: String) { input.append(text.utf8) }

    /// Rounds handed out, so that each call without one is a round of its own in every test.
    private static let rounds = Atomic<Int64>(0)

    /// A round no call has had yet.
    static func newRound() -> Int64 { rounds.add(1, ordering: .relaxed).newValue }

    /// `Session.answer` in round `now` (by default a new one), then what it wrote appended to `out`.
    func answer(into out: inout [UInt8], outputLimit: Int = .max, inputEnded: Bool = false, now: Int64 = FedSession.newRound()) -> Bool {
        let full = session.answer(&input, into: &output, outputLimit: outputLimit, inputEnded: inputEnded, now: now)
        deliver(into: &out)
        return full
    }

    /// `Session.resume`, then what it wrote appended to `out`.
    func resume(_ resumption: Session.Resumption, into out: inout [UInt8]) -> Bool {
        let resumed = session.resume(resumption, into: &output)
        deliver(into: &out)
        return resumed
    }

    /// Sends the output and reads it back, in turns, until all of it arrived.
    private func deliver(into out: inout [UInt8]) {
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            guard case .sent = output.send(to: socket.writer.raw) else { preconditionFailure("send to the socket pair failed") }
            while true {
                let count = read(socket.reader.raw, &chunk, chunk.count)
                guard count > 0 else { break }
                out += chunk[..<count]
            }
            if output.unsent == 0 { return }
        }
    }
}
