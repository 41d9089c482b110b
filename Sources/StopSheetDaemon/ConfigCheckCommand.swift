/// `stopsheetd --check-config [--config FILE] [flags]`, like `sshd -t` or `nginx -t`: checks
/// what the daemon would start with (flags, `STOPSHEETD_*` environment, the config file), prints
/// every problem as `file:line: …` on stderr and a verdict, serves nothing. Exit 0 when the daemon
/// would start (warnings allowed), 1 when it would refuse. Runs on the calling thread.
public enum ConfigCheckCommand {
    public static func run(arguments: [String], environment: [String: String], readFile: (String) throws(Config.Failure) -> String?) -> Int32 {
        var checked = Config.check(arguments: arguments, environment: environment, readFile: readFile)
        // What the start refuses of the socket path once the configuration is read, in its words:
        // one too long, or in a missing directory (checked, never made: a check changes nothing).
        if case .run(let config)? = checked.action {
            do throws(ListenerError) { try checkSocketPath(config.socketPath) } catch {
                checked.problems.append(.error(error.description))
                checked.action = nil
            }
        }
        for problem in checked.problems { printError(problem.description) }
        let counts = [(checked.errors.count, "error"), (checked.warnings.count, "warning")]
            .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)\($0.0 == 1 ? "" : "s")" }.joined(separator: ", ")
        let verdict = checked.action == nil ? "configuration has errors" : "configuration OK"
        printError("stopsheetd: \(verdict)\(counts.isEmpty ? "" : " (\(counts))")")
        return checked.action == nil ? 1 : 0
    }
}
