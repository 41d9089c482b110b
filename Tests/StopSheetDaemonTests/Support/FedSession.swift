@testable import StopSheetDaemon

/// A session with what its connection would give it: an input to take lines from. The test is
/// the loop, on its thread.
final class FedSession {
    let session: Session
    var input: LineFramer

    init(host: SessionHost, peer: PeerCredentials = PeerCredentials(pid: 1, uid: 0, gid: 0),
         resume: @escaping @Sendable (Session.Resumption) -> Void = { _ in }) {
        session = Session(peer: peer, host: host, resume: resume)
        input = LineFramer(maxLineBytes: host.limits.maxLineBytes)
    }

    /// Bytes the client sent, as a read would add them.
    func receive(_ text: String) { input.append(text.utf8) }

    func answer(into output: inout [UInt8], outputLimit: Int = .max, inputEnded: Bool = false) -> Bool {
        session.answer(&input, into: &output, outputLimit: outputLimit, inputEnded: inputEnded)
    }
}
