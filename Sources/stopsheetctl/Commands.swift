import Posix
import StopSheetClient
import StopSheetCore

/// The command table. A new command is one entry here (its definition may live in a file of its
/// own, as an `extension Command { static let … }`).
extension Command {
    static let all: [Command] = [.sheet, .station, .map, .stations, .alerts, .facilities, .health, .instances, .wait, .stats, .watch, .version, .refresh, .call, .help]

    static let globalOptions: [Option] = [
        Option(name: "--socket", value: "PATH", summary: "the daemon's socket (default $STOPSHEETD_SOCKET, else /run/stopsheetd/stopsheetd.sock)"),
        Option(name: "--instance", value: "NAME", summary: "the daemon of stopsheetd@NAME, on /run/stopsheetd/NAME.sock (default $STOPSHEETD_INSTANCE; see instances)"),
        Option(name: "--timeout", value: "SECONDS", summary: "how long to wait for each answer (default 15); for wait, in all"),
        Option(name: "--json", value: nil, summary: "print the result as JSON, exactly as the daemon sent it; on failure a JSON error object"),
        Option(name: "--help", value: nil, summary: "this help (also -h, and `help COMMAND`)"),
        Option(name: "--version", value: nil, summary: "stopsheetctl's version"),
    ]

    static func named(_ name: String) -> Command? { all.first { $0.name == name } }

    static let sheet = Command(
        name: "sheet", operands: "STOP_ID", summary: "the stop sheet: alerts, step-free access",
        options: [
            Option(name: "--bus", value: nil, summary: "STOP_ID is a bus stop"),
            Option(name: "--name", value: "NAME", summary: "the station's name to show before stations have loaded"),
        ],
        operandCount: 1...1
    ) { invocation throws(Failure) in
        let stopID = invocation.operands[0]
        let bus = invocation.arguments.has("--bus")
        if bus, invocation.arguments.value("--name") != nil {
            throw .usage("--name is a train station's name; a bus stop sheet shows none (leave out --bus or --name)")
        }
        if bus, !StationLookup.isStopIDShaped(stopID) {
            let guess = (try? invocation.connect()).flatMap { StationLookup.didYouMean(stopID, client: $0, command: "sheet") }
            throw .usage("'\(stopID)' is not a bus stop id: bus stop ids are numbers\(guess.map { "; \($0)" } ?? "")")
        }
        let client = try invocation.connect()
        let stopType: StopType? = bus ? .bus : nil
        let sheet = try invocation.call(client) { (client) throws(ClientError) in
            try client.stopSheet(stopId: stopID, stopType: stopType, stationName: invocation.arguments.value("--name"))
        }
        // The lines tell same-named stations apart; a sheet is still worth printing without them.
        let station = invocation.json || sheet.stopType != .train ? nil : try? client.station(stopId: sheet.stationId ?? stopID).value
        invocation.output(sheet.json) { Rendering.sheet(sheet.value, station: station, into: &$0) }
        return ExitStatus.success
    }

    static let station = Command(
        name: "station", operands: "STOP_ID", summary: "lines, platforms, step-free access", operandCount: 1...1
    ) { invocation throws(Failure) in
        let stopID = invocation.operands[0]
        let client = try invocation.connect()
        let station = try invocation.call(client) { (client) throws(ClientError) in try client.station(stopId: stopID) }
        invocation.output(station.json) { Rendering.station(station.value, into: &$0) }
        return ExitStatus.success
    }

    static let stations = Command(
        name: "stations", operands: "[NAME]", summary: "every station, or those whose name contains NAME",
        options: [Option(name: "--all", value: nil, summary: "ask every instance (see instances), each one's under its agency's name")],
        operandCount: 0...1
    ) { invocation throws(Failure) in
        if invocation.arguments.has("--all") { return try InstancesCommand.stations(named: invocation.operands.first, invocation) }
        let list = try invocation.call(try invocation.connect()) { (client) throws(ClientError) in try client.stations() }
        let name = invocation.operands.first
        let shown = name.map { StationLookup.filtered(list, named: $0) } ?? list
        invocation.output(shown.json) { Rendering.stations(shown.value, named: name, into: &$0) }
        return ExitStatus.success
    }

    static let alerts = Command(
        name: "alerts", operands: "[STOP_ID]", summary: "live train alerts, all or a stop's", operandCount: 0...1
    ) { invocation throws(Failure) in
        let stopID = invocation.operands.first
        let client = try invocation.connect()
        let alerts = try invocation.call(client) { (client) throws(ClientError) in try client.alerts(stopId: stopID) }
        let station = invocation.json ? nil : stopID.flatMap { try? client.station(stopId: $0).value }
        invocation.output(alerts.json) { Rendering.alerts(alerts.value, station: station, into: &$0) }
        return ExitStatus.success
    }

    static let facilities = Command(
        name: "facilities", operands: "[STOP_ID]", summary: "lifts and escalators of the lift-status feed and their statuses, all or a stop's station's",
        options: [Option(name: "--unplaced", value: nil,
                         summary: "print the units no rule places as rows of the inventory CSV (facility_id,stop_id,pathway_id), one per candidate pathway, to edit and give the daemon")],
        operandCount: 0...1
    ) { invocation throws(Failure) in
        let stopID = invocation.operands.first
        let units = try invocation.call(try invocation.connect()) { (client) throws(ClientError) in try client.facilities(stopId: stopID) }
        if invocation.arguments.has("--unplaced") {
            for row in InventoryRows.unplaced(units.value) { print(row) }
            return ExitStatus.success
        }
        invocation.output(units.json) { Rendering.facilities(units.value, into: &$0) }
        return ExitStatus.success
    }

    static let health = Command(
        name: "health", operands: "", summary: "data and sources (exit 4 unless ready)", operandCount: 0...0
    ) { invocation throws(Failure) in
        let health = try invocation.call(try invocation.connect()) { (client) throws(ClientError) in try client.health() }
        invocation.output(health.json) { Rendering.outline(health.json, into: &$0) }
        return health.value.isReady ? ExitStatus.success : ExitStatus.notReady
    }

    static let version = Command(
        name: "version", operands: "", summary: "the daemon's version", operandCount: 0...0
    ) { invocation throws(Failure) in
        let version = try invocation.call(try invocation.connect()) { (client) throws(ClientError) in try client.version() }
        invocation.output(version.json) { Rendering.outline(version.json, into: &$0) }
        return ExitStatus.success
    }

    static let refresh = Command(
        name: "refresh", operands: "[alerts|stations|facilities|all]", summary: "refresh now (root, the daemon's user)", operandCount: 0...1
    ) { invocation throws(Failure) in
        let what = invocation.operands.first ?? "all"
        guard let target = RefreshTarget(rawValue: what) else {
            let targets = RefreshTarget.allCases.map(\.rawValue)
            let guess = Hints.closest(to: what, among: targets).map { "; did you mean '\($0)'?" } ?? " (\(targets.joined(separator: ", ")))"
            throw .usage("refresh: unknown target '\(what)'\(guess)")
        }
        let refreshed = try invocation.call(try invocation.connect()) { (client) throws(ClientError) in try client.refresh(target) }
        invocation.output(refreshed.json) { Rendering.outline(refreshed.json, into: &$0) }
        // The daemon answers a failed refresh with the cache's health entry: the error is in it.
        typealias Caches = Answer.Refreshed.CodingKeys
        let entries = [(Caches.alerts, refreshed.alerts), (Caches.stations, refreshed.stations), (Caches.facilities, refreshed.facilities)].compactMap { cache, entry in entry.map { (cache, $0) } }
        let failed = entries.filter { $0.1.consecutiveFailures > 0 }
        for (cache, entry) in failed {
            printError("stopsheetctl: \(TerminalText("\(cache.rawValue) refresh failed: \(entry.lastError.value ?? "?")"))")
        }
        return failed.isEmpty ? ExitStatus.success : ExitStatus.daemonError
    }

    static let call = Command(
        name: "call", operands: "METHOD [PARAMS_JSON]", summary: "any method, its result as JSON", operandCount: 1...2
    ) { invocation throws(Failure) in
        let method = invocation.operands[0]
        var params: JSON?
        if invocation.operands.count == 2 {
            do { params = try JSONParser.parse(invocation.operands[1]) } catch {
                throw .usage("PARAMS_JSON: \(ParamsJSON.explain(error, in: invocation.operands[1]))")
            }
        }
        let result = try invocation.call(try invocation.connect()) { [params] (client) throws(ClientError) in
            try client.call(method: method, params: params)
        }
        print(SafeJSON.text(result))
        return ExitStatus.success
    }

    static let help = Command(
        name: "help", operands: "[COMMAND]", summary: "this help, or a command's", operandCount: 0...1
    ) { invocation throws(Failure) in
        guard let name = invocation.operands.first else {
            print(Usage.text, terminator: "")
            return ExitStatus.success
        }
        guard let command = Command.named(name) else { throw .usage(Usage.unknownCommand(name)) }
        print(Usage.text(for: command), terminator: "")
        return ExitStatus.success
    }
}
