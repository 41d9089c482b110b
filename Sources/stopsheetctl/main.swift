import Glibc
import Posix
import StopSheetClient
import StopSheetCore

/// stopsheetctl: query stopsheetd from a shell. Exit codes (for scripts): 0 success, 1 the
/// daemon answered with an error, 2 usage error, 3 cannot reach the daemon, 4 `health` not ready.
let usage = """
    Usage: stopsheetctl [--socket PATH] [--json] [--timeout SECONDS] COMMAND
      sheet STOP_ID [--bus] [--name NAME]   the stop sheet (alert glyph, accessibility button)
      station STOP_ID                       station detail: platforms, lines, step-free access
      alerts [STOP_ID]                      live train alerts (all, or those applying to a stop)
      health                                cache and source status (exit 4 unless ready)
      version                               daemon version
      refresh [alerts|stations|all]         refresh now (root or the daemon's user)
      call METHOD [PARAMS_JSON]             any method, raw
      watch STOP_ID… [--health]             the sheets, then each change as it comes (until Ctrl-C)
    The socket defaults to $STOPSHEETD_SOCKET or /run/stopsheetd/stopsheetd.sock.

    """

func fail(_ message: String, _ status: Int32) -> Never {
    printError("stopsheetctl: \(message)")
    exit(status)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var socketPath = getenv("STOPSHEETD_SOCKET").map { String(cString: $0) } ?? "/run/stopsheetd/stopsheetd.sock"
var rawJSON = false
var timeout = 15.0

@MainActor func takeOption(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name) else { return nil }
    guard index + 1 < arguments.count else { fail("\(name) needs a value", 2) }
    defer { arguments.removeSubrange(index...index + 1) }
    return arguments[index + 1]
}

@MainActor func takeFlag(_ name: String) -> Bool {
    guard let index = arguments.firstIndex(of: name) else { return false }
    arguments.remove(at: index)
    return true
}

if takeFlag("--help") || takeFlag("-h") || arguments.isEmpty {
    print(usage, terminator: "")
    exit(arguments.isEmpty && !CommandLine.arguments.contains(where: { $0 == "--help" || $0 == "-h" }) ? 2 : 0)
}
if let path = takeOption("--socket") { socketPath = path }
if let seconds = takeOption("--timeout") {
    guard let value = Double(seconds), value > 0 else { fail("--timeout: '\(seconds)' is not a number of seconds", 2) }
    timeout = value
}
rawJSON = takeFlag("--json")

let command = arguments.removeFirst()
if command == "watch" {
    var watch = Watch(arguments: arguments, socketPath: socketPath, timeout: timeout, json: rawJSON)
    watch.run()
}
let request: (StopSheetClient) throws(ClientError) -> JSON
switch command {
case "sheet":
    let stopType: StopType? = takeFlag("--bus") ? .bus : nil
    let name = takeOption("--name")
    guard arguments.count == 1 else { fail("usage: sheet STOP_ID [--bus] [--name NAME]", 2) }
    let stopID = arguments[0]
    request = { (client) throws(ClientError) in try client.stopSheet(stopId: stopID, stopType: stopType, stationName: name).json }
case "station":
    guard arguments.count == 1 else { fail("usage: station STOP_ID", 2) }
    let stopID = arguments[0]
    request = { (client) throws(ClientError) in try client.station(stopId: stopID) }
case "alerts":
    guard arguments.count <= 1 else { fail("usage: alerts [STOP_ID]", 2) }
    let stopID = arguments.first
    request = { (client) throws(ClientError) in try client.alerts(stopId: stopID) }
case "health":
    guard arguments.isEmpty else { fail("usage: \(command)", 2) }
    request = { (client) throws(ClientError) in try client.health().json }
case "version":
    guard arguments.isEmpty else { fail("usage: \(command)", 2) }
    request = { (client) throws(ClientError) in try client.version().json }
case "refresh":
    guard arguments.count <= 1 else { fail("usage: refresh [alerts|stations|all]", 2) }
    let what = arguments.first ?? "all"
    // An unknown target still goes to the daemon, whose error says what it accepts.
    if let target = RefreshTarget(rawValue: what) {
        request = { (client) throws(ClientError) in try client.refresh(target) }
    } else {
        request = { (client) throws(ClientError) in try client.call(method: "refresh", params: ["what": .string(what)]) }
    }
case "call":
    guard (1...2).contains(arguments.count) else { fail("usage: call METHOD [PARAMS_JSON]", 2) }
    let method = arguments[0]
    var params: JSON?
    if arguments.count == 2 {
        do { params = try JSONParser.parse(arguments[1]) } catch { fail("PARAMS_JSON: \(error)", 2) }
    }
    request = { [params] (client) throws(ClientError) in try client.call(method: method, params: params) }
default:
    fail("unknown command '\(command)' (see --help)", 2)
}

let result: JSON
do {
    result = try request(StopSheetClient(socketPath: socketPath, timeout: .seconds(timeout)))
} catch .rpc(let error) {
    if rawJSON { print(error.answer.encodedString) }
    fail("\(error)", 1)
} catch {
    fail("\(error)", 3)
}
if rawJSON || command == "call" {
    print(result.encodedString)
} else {
    print(Rendering.render(command: command, result: result), terminator: "")
}
if command == "health", result["status"]?.stringValue != "ready" { exit(4) }
