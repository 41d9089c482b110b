/// Why the loop closes a connection: what it counts, and what it logs as the client's doing.
enum CloseReason: Equatable {
    /// Done: input ended and everything was answered, or nothing was in flight at hang-up.
    case finished
    /// The daemon's stop ended it, once answered or at the drain timeout.
    case drained
    case vanished(Int32)
    case idle
    case stuck

    var counter: ServerCounter {
        switch self {
        case .finished, .drained: .closedFinished
        case .vanished: .closedVanished
        case .idle: .closedIdle
        case .stuck: .closedStuck
        }
    }

    /// The client error it is logged as; nil for an orderly end.
    var clientError: String? {
        switch self {
        case .finished, .drained: nil
        case .vanished(let code): "client went away with answers pending: \(Errno(code))"
        case .idle: "closed an idle connection"
        case .stuck: "closed a connection that stopped reading its answers"
        }
    }
}
