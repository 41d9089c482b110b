import Glibc
import Posix
import StopSheetClient
import StopSheetCore

// stopsheetctl: query stopsheetd from a shell. The commands are `Command.all` (Commands.swift);
// this file only parses, runs one and turns a failure into its message and exit status.

let arguments = Array(CommandLine.arguments.dropFirst())
/// Whether failures are also told as JSON on stdout; settled once the command line is parsed.
var json = arguments.contains("--json")
let options = Command.globalOptions + Command.all.flatMap(\.options)

/// Says what went wrong on stderr (and, under `--json`, as a JSON error object on stdout), then
/// exits with the failure's status.
@MainActor func fail(_ failure: Failure) -> Never {
    let message: String, hint: String?
    /// A JSON-RPC error object's members; no code for a failure of stopsheetctl's own.
    func errorObject(code: Int?, message: String, data: JSON?) -> JSON {
        .object(JSONObject([(RPCEnvelope.code, code.map(JSON.int) ?? .null), (RPCEnvelope.message, .string(message)), (RPCEnvelope.data, data ?? .null)]))
    }
    let error: JSON
    switch failure {
    case .usage(let text):
        (message, hint) = (text, nil)
        error = errorObject(code: nil, message: text, data: nil)
    case .notReady(let line):
        (message, hint) = (line, nil)
        error = errorObject(code: nil, message: line, data: nil)
    case .client(.rpc(let rpc), let guess):
        (message, hint) = ("\(rpc)", guess)
        error = errorObject(code: rpc.code, message: rpc.message, data: rpc.data)
    case .client(let client, let guess):
        (message, hint) = ("\(client)", guess)
        error = errorObject(code: nil, message: message, data: nil)
    }
    if json { print(SafeJSON.text(error)) }
    printError("stopsheetctl: \(TerminalText(message))")
    if let hint { printError("stopsheetctl: hint: \(TerminalText(hint))") }
    if case .usage = failure, !json { printError("Try 'stopsheetctl help'.") }
    exit(failure.status)
}

let parsed: Arguments
do throws(Arguments.UsageError) { parsed = try Arguments(arguments, options: options) } catch { fail(.usage(error.message)) }

if parsed.has("--version") {
    print("stopsheetctl \(StopSheetVersion.current)")
    exit(ExitStatus.success)
}
if parsed.has("--help") {
    print(parsed.command.flatMap(Command.named).map(Usage.text(for:)) ?? Usage.text, terminator: "")
    exit(ExitStatus.success)
}
// `--socket version`: the path forgotten, the command taken for it.
if parsed.command.flatMap(Command.named) == nil,
   let (option, value) = parsed.values.first(where: { Command.named($0.value) != nil }).map({ ($0.key, $0.value) }),
   let synopsis = options.first(where: { $0.name == option })?.synopsis
{
    fail(.usage("\(option) needs a value (\(synopsis)); '\(value)' was taken for it"))
}
guard let name = parsed.command else {
    printError(String(Usage.text.dropLast()))
    fail(.usage("no command given"))
}
guard let command = Command.named(name) else { fail(.usage(Usage.unknownCommand(name))) }
json = parsed.has("--json")
for option in parsed.given where !Command.globalOptions.contains(where: { $0.name == option }) && !command.options.contains(where: { $0.name == option }) {
    fail(.usage("\(option) is not an option of \(command.name)"))
}
guard command.operandCount.contains(parsed.operands.count) else {
    fail(.usage("usage: stopsheetctl \(command.synopsis)"))
}
var timeout = 15.0
if let text = parsed.value("--timeout") {
    guard let seconds = Double(text), seconds.isFinite else { fail(.usage("--timeout: '\(text)' is not a number of seconds")) }
    guard seconds > 0, seconds <= 86_400 else { fail(.usage("--timeout: \(text) s is out of range: it must be greater than 0 and at most 86400")) }
    timeout = seconds
}
do throws(Failure) {
    let invocation = Invocation(arguments: parsed, sockets: try SocketChoice(parsed), timeout: timeout, json: json, width: Terminal.width())
    exit(try command.run(invocation))
} catch {
    fail(error)
}
