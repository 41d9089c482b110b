/// What a reload (SIGHUP) does with each option: every option is applied, except these, which
/// the serving loop sizes itself by at start-up — its connection table and per-uid shares, the
/// budgets of the buffers it holds, the line, batch and depth limits of the requests it reads,
/// its timers, the subscription limits — and the socket it listens on. Connections admitted
/// under the old limits would otherwise be held to new ones mid-stream; a restart applies them
/// to all at once. A reload that finds one of these changed keeps the running value and logs one
/// warning naming it (`reload_ignored`); `--help` and stopsheetd(8) mark them.
extension Config {
    struct RestartOnly: Sendable {
        let flag: String
        /// Whether two configurations differ in this option.
        let differs: @Sendable (Config, Config) -> Bool

        init<Value: Equatable & Sendable>(_ flag: String, _ field: KeyPath<Config, Value> & Sendable) {
            self.flag = flag
            differs = { $0[keyPath: field] != $1[keyPath: field] }
        }
    }

    static let restartOnly: [RestartOnly] = [
        RestartOnly("--socket", \.socketPath),
        RestartOnly("--max-line-bytes", \.maxLineBytes),
        RestartOnly("--max-connections", \.maxConnections),
        RestartOnly("--max-connections-per-uid", \.maxConnectionsPerUID),
        RestartOnly("--max-buffered-bytes", \.maxBufferedBytes),
        RestartOnly("--max-batch", \.maxBatch),
        RestartOnly("--max-depth", \.maxDepth),
        RestartOnly("--max-output-bytes", \.maxOutputBytes),
        RestartOnly("--idle-timeout", \.idleTimeout),
        RestartOnly("--stuck-timeout", \.stuckTimeout),
        RestartOnly("--max-subscriptions", \.maxSubscriptions),
        RestartOnly("--max-subscription-stops", \.maxSubscriptionStops),
        RestartOnly("--max-subscribed-stops", \.maxSubscribedStops),
    ]

    static func isRestartOnly(_ flag: String) -> Bool { restartOnly.contains { $0.flag == flag } }

    /// Every restart-only option as `running` has it: the configuration a reload leaves in force.
    mutating func keepRestartOnly(from running: Config) {
        (socketPath, maxLineBytes, maxConnections, maxConnectionsPerUID) = (running.socketPath, running.maxLineBytes, running.maxConnections, running.maxConnectionsPerUID)
        (maxBufferedBytes, maxBatch, maxDepth, maxOutputBytes) = (running.maxBufferedBytes, running.maxBatch, running.maxDepth, running.maxOutputBytes)
        (idleTimeout, stuckTimeout) = (running.idleTimeout, running.stuckTimeout)
        (maxSubscriptions, maxSubscriptionStops, maxSubscribedStops) = (running.maxSubscriptions, running.maxSubscriptionStops, running.maxSubscribedStops)
        assert(running.restartOnlyChanges(to: self).isEmpty, "a restart-only option keepRestartOnly does not keep")
    }

    /// The restart-only options `next` changes from `self`, in the table's order.
    func restartOnlyChanges(to next: Config) -> [String] {
        Self.restartOnly.filter { $0.differs(self, next) }.map(\.flag)
    }

    /// What `--help` and stopsheetd(8) say of a restart-only option.
    static let restartOnlyNote = "takes effect at restart, not on SIGHUP"
}
