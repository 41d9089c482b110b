import StopSheetClient
import StopSheetCore

extension Command {
    /// `stopsheetctl wait [--for all|alerts|stations|facilities]`: for scripts and integration tests, until the
    /// daemon's socket exists and the data has loaded, told by inotify and by push (a `health`
    /// subscription), never by polling. `--timeout` bounds the whole wait; at the timeout, exit 4
    /// with one line saying what it still waits for.
    static let wait = Command(
        name: "wait", operands: "", summary: "until the socket is there and the data loaded (exit 4 at --timeout)",
        options: [Option(name: "--for", value: "all|alerts|stations|facilities", summary: "what to wait for (default all: every source the daemon has)")],
        operandCount: 0...0
    ) { invocation throws(Failure) in
        let what = invocation.arguments.value("--for") ?? LoadTarget.all.rawValue
        guard let target = LoadTarget(rawValue: what) else {
            throw .usage("--for: '\(what)' is not one of \(LoadTarget.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let timeout = Duration.seconds(invocation.timeout)
        let health: Reply<Answer.Health>
        do throws(ClientError) {
            health = try StopSheetClient.waitUntilLoaded(socketPath: invocation.socketPath, target, timeout: timeout, answerTimeout: timeout).health
        } catch .stillWaiting(let line) {
            throw .notReady(line)
        } catch {
            throw .client(error, hint: nil)
        }
        if invocation.json {
            print(SafeJSON.text(health.json))
        } else {
            let loaded = target.caches.filter { $0.entry(health.value)?.loaded ?? false }.map(\.name)
            let unset = target.caches.filter { !($0.entry(health.value)?.configured ?? false) }.map(\.name)
            print("loaded: \(loaded.joined(separator: ", "))\(unset.isEmpty ? "" : "; not configured: \(unset.joined(separator: ", "))")")
        }
        return ExitStatus.success
    }
}
