/// Where the daemon is in its life (after swift-service-lifecycle's `ServiceGroup`). It only moves
/// forward, one way:
///
///     initial → starting → running → stopping → stopped
///                  └──────────────────↗
///
/// `starting` covers building the parts up to the serving loop's first turn; `running` begins
/// with READY=1. A stop requested while starting skips `running`: the loop then drains at once
/// and READY=1 is never sent. A reload happens only while `running`.
///
/// Threads: `Daemon.state` holds it behind its lock; every thread that moves it announces the
/// move to systemd under that lock.
enum LifecycleState: Sendable, Equatable {
    case initial, starting, running, stopping, stopped
}

extension Locked where Value == LifecycleState {
    /// Moves the state from one of `from` to `to` (or leaves it, when `to` is nil) and runs
    /// `announce` in the same step, under the state's lock: systemd then hears READY=1,
    /// RELOADING=1 and STOPPING=1 in the order the state moved. False, with nothing announced,
    /// when the state was elsewhere.
    @discardableResult
    func advance(from: [LifecycleState], to next: LifecycleState? = nil, announce: () -> Void = {}) -> Bool {
        withLock { state in
            guard from.contains(state) else { return false }
            if let next { state = next }
            announce()
            return true
        }
    }
}
