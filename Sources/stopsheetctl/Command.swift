import StopSheetClient
import StopSheetCore

/// One stopsheetctl command: its name, what it takes, what it does. The table of them is
/// `Command.all` (Commands.swift); usage text, option checks and the man page's list come from it.
struct Command: Sendable {
    let name: String
    /// Operands as the usage shows them: `STOP_ID`, `[alerts|stations|all]`.
    let operands: String
    let summary: String
    /// Options only this command takes (the global ones are `Command.globalOptions`).
    var options: [Option] = []
    let operandCount: ClosedRange<Int>
    /// Runs the command and returns its exit status; what it prints goes through `Output`.
    let run: @Sendable (Invocation) throws(Failure) -> Int32

    var synopsis: String {
        ([name, operands] + options.map { "[\($0.synopsis)]" }).filter { !$0.isEmpty }.joined(separator: " ")
    }
}

/// Why a command did not succeed, mapped to the exit status in one place (`Failure.status`).
enum Failure: Error {
    /// Exit 2: the command line is wrong.
    case usage(String)
    /// Exit 1 when the daemon answered with an error, 3 when it could not be reached or did not
    /// answer properly; `hint` is a guess at what the user meant.
    case client(ClientError, hint: String?)
    /// Exit 4: `wait` timed out; the line says what it still waits for.
    case notReady(String)

    var status: Int32 {
        switch self {
        case .usage: return ExitStatus.usage
        case .notReady: return ExitStatus.notReady
        case .client(.rpc, _): return ExitStatus.daemonError
        case .client: return ExitStatus.unreachable
        }
    }
}

/// The exit statuses, for scripts (README, stopsheetctl(1)).
enum ExitStatus {
    static let success: Int32 = 0
    static let daemonError: Int32 = 1
    static let usage: Int32 = 2
    static let unreachable: Int32 = 3
    /// `health` is not ready; `wait` timed out.
    static let notReady: Int32 = 4
}

/// A parsed command line about to run: where the daemon is, how to print, the operands.
struct Invocation: Sendable {
    let arguments: Arguments
    let sockets: SocketChoice
    let timeout: Double
    /// `--json`: the bare result on stdout, exactly as JSON (see `SafeJSON`).
    let json: Bool
    let width: Int

    var operands: [String] { arguments.operands }
    var socketPath: String { sockets.path }

    func connect() throws(Failure) -> StopSheetClient {
        do { return try StopSheetClient(socketPath: socketPath, timeout: .seconds(timeout)) } catch {
            throw .client(error, hint: Hints.unreachable(error, socketPath: socketPath))
        }
    }

    /// One call, its error turned into a `Failure` with a hint for this command line.
    func call<Result>(_ client: StopSheetClient, _ body: (StopSheetClient) throws(ClientError) -> Result) throws(Failure) -> Result {
        do { return try body(client) } catch {
            throw .client(error, hint: Hints.after(error, invocation: self, client: client))
        }
    }

    /// Prints `result`: as JSON under `--json`, else as `render` lays it out.
    func output(_ result: JSON, render: (inout Page) -> Void) {
        if json {
            print(SafeJSON.text(result))
        } else {
            var page = Page(width: width)
            render(&page)
            print(page.text, terminator: "")
        }
    }
}
