/// What the serving loop asks of a connection's protocol side, and all it knows of it: lines in
/// from the connection's input, answer bytes out into its output, a deferred answer's completion
/// back. `Session` is the JSON-RPC one. The loop is generic over it, not handed an existential:
/// specialised, the per-request calls cost what direct calls do. Owned by the loop thread (not
/// `Sendable`: only a `Resumption` crosses threads).
protocol ConnectionHandler: AnyObject {
    /// What the handlers of one loop share (`SessionHost`), made on the loop thread.
    associatedtype Host
    /// A deferred answer's completion on its way back to the loop thread.
    associatedtype Resumption: Sendable

    /// `resume` may be called from any thread, once per deferred answer: the loop then passes
    /// its argument to `resume(_:into:)` on its own thread. `wake`, called on the loop thread,
    /// asks for a call of `answer` soon (the handler has output of its own to write).
    init(peer: PeerCredentials, host: Host, resume: @escaping @Sendable (Resumption) -> Void, wake: @escaping () -> Void)

    /// The one line a client turned away for `refusal` is sent before its connection is closed.
    static func refusalLine(_ refusal: ConnectionRefusal, host: Host) -> [UInt8]

    /// Takes whole lines from `input` and appends their answers to `output` until one waits on a
    /// deferred answer, none is left, or `output` has grown past `outputLimit` bytes; true in the
    /// last case (lines may be left). `inputEnded`: the client sent its last byte, so a final
    /// line without newline counts. A line taken is the client's activity, which the loop sees
    /// as input consumed. `now` is the loop's clock for this round (monotonic nanoseconds, the
    /// same for every call of one round): a handler may answer a round's requests as of one instant.
    func answer(_ input: inout LineFramer, into output: inout OutputBuffer, outputLimit: Int, inputEnded: Bool, now: Int64) -> Bool

    /// Appends a completed deferred answer; false when the completion is stale. `answer` next.
    func resume(_ resumption: Resumption, into output: inout OutputBuffer) -> Bool

    /// A deferred answer is outstanding: the connection is not read from meanwhile, and its
    /// silence is the handler's wait, not the client's idleness.
    var isWaiting: Bool { get }

    /// The connection is closed.
    func end()
}
