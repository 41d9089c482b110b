/// What a reload (SIGHUP) does with an option: the `reload` column of the options table
/// (ConfigOptions.swift), which `--help`, stopsheetd(8) (a test holds it to the column) and the
/// reload read. Every option is applied, except those the serving loop sizes itself by at
/// start-up — its connection table and per-uid shares, the budgets of the buffers it holds, the
/// line, batch and depth limits of the requests it reads, its timers, the subscription limits —
/// the socket it listens on, and two things of start-up alone: the clock (`--now` sets it once,
/// before any thread reads it; a reload never moves it, so a test that wants another instant
/// restarts the daemon) and when start-up's READY=1 is sent (`--notify-ready`). Connections
/// admitted under the old limits would otherwise be held to new ones mid-stream; a restart
/// applies them to all at once. A reload that finds one of these changed keeps the running value
/// and logs one warning naming it (`reload_ignored`). (Adding or removing a source is refused
/// whole, by the reload itself: it is no one option's, `--demo` supplies any source not given.)
extension Config {
    /// How an option that takes effect at restart is held at its running value on SIGHUP (an
    /// option SIGHUP applies has none: its row's `reload` is nil).
    struct OnReload: Sendable {
        /// Whether two configurations differ in the option.
        let differs: @Sendable (Config, Config) -> Bool
        /// Puts the running value back into a reloaded configuration.
        let keep: @Sendable (inout Config, Config) -> Void

        static func atRestart<Value: Equatable & Sendable>(_ field: WritableKeyPath<Config, Value> & Sendable) -> OnReload {
            OnReload(differs: { $0[keyPath: field] != $1[keyPath: field] }, keep: { $0[keyPath: field] = $1[keyPath: field] })
        }
    }

    static func takesEffectAtRestart(_ flag: String) -> Bool { options.contains { $0.flag == flag && $0.reload != nil } }

    /// What a reload puts in force when `self` runs and `next` was read: `next`, with every
    /// option that takes effect at restart at its running value; and the flags of those `next`
    /// changed, in the table's order, each once.
    func reloaded(to next: Config) -> (config: Config, ignored: [String]) {
        var applied = next
        var ignored: [String] = []
        for option in Self.options {
            guard let reload = option.reload, reload.differs(self, next) else { continue }
            ignored.append(option.flag)
            reload.keep(&applied, self)
        }
        return (applied, ignored)
    }

    /// What `--help` and stopsheetd(8) say of an option that takes effect at restart.
    static let restartOnlyNote = "takes effect at restart, not on SIGHUP"
}
