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
