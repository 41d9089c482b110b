/// Who is at the other end of a connection, from `SO_PEERCRED`: what privilege checks and
/// client-error logs go by.
public struct PeerCredentials: Sendable, Equatable {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32

    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }
}

extension Log {
    /// Client mistakes are the client's problem: debug level, or an attacker could fill the
    /// journal. The one `client_error` logged higher is a refused `refresh` (info, in
    /// `StopSheetService.refresh`): a user trying a privileged method is worth an operator's eye.
    static func clientError(_ peer: PeerCredentials, _ message: @autoclosure () -> String) {
        guard Log.isEnabled(.debug) else { return }
        // The message may quote the client (a method name of up to a whole line): keep it short.
        Log.debug(Log.oneLine(message(), maxBytes: 300), [JournalEvent.clientError.field, ("PEER_UID", String(peer.uid)), ("PEER_PID", String(peer.pid))])
    }
}
