import Posix
import StopSheetClient
import StopSheetCore

/// `instances` and `stations --all`: every stopsheetd of the machine, one agency each
/// (`SocketChoice.everyInstance`), asked in turn on a connection of its own. A socket file
/// nobody listens on is a stopped instance: shown as such, never a failure; any other instance
/// that does not answer makes the exit status its failure's.
extension Command {
    static let instances = Command(
        name: "instances", operands: "", summary: "every instance: agency, zone, status, counts, feed time", operandCount: 0...0
    ) { invocation throws(Failure) in
        let found = invocation.sockets.everyInstance.map { StopSheetClient.health(of: $0, timeout: .seconds(invocation.timeout)) }
        let failures = found.map { entry -> ClientError? in if case .failure(let error) = entry.health { error } else { nil } }
        if invocation.json {
            print(SafeJSON.text(.array(zip(found, failures).map { entry, failure in
                InstancesCommand.json(entry.instance, failure, [("health", (try? entry.health.get())?.json ?? .null)])
            })))
        } else {
            var page = Page(width: invocation.width)
            if found.isEmpty { page.paragraph("No stopsheetd instance: no socket in \(invocation.sockets.runDirectory).") }
            let nameWidth = found.map { Page.displayWidth(TerminalText($0.instance.name).description) }.max() ?? 0
            for entry in found {
                let lead = TerminalText(TerminalText(entry.instance.name).description.padding(to: nameWidth + 1))
                let lines = InstancesCommand.lines(entry)
                page.paragraph(lines[0], hangingIndent: nameWidth + 2, lead: lead)
                for line in lines.dropFirst() { page.paragraph(line, indent: nameWidth + 2) }
            }
            print(page.text, terminator: "")
        }
        return InstancesCommand.status(failures)
    }
}

enum InstancesCommand {
    /// `stations [NAME] --all`: each running instance's stations (those whose name contains
    /// NAME), under its agencies' names and the instance's.
    static func stations(named name: String?, _ invocation: Invocation) throws(Failure) -> Int32 {
        if invocation.arguments.value("--instance") != nil { throw .usage("--all asks every instance: leave out --instance") }
        var page = Page(width: invocation.width)
        var entries: [JSON] = []
        var failures: [ClientError?] = []
        for instance in invocation.sockets.everyInstance {
            let answer = Result { () throws(ClientError) in
                let client = try StopSheetClient(socketPath: instance.socketPath, timeout: .seconds(invocation.timeout))
                let list = try client.stations()
                return (agencies: try client.health().agencies, stations: name.map { StationLookup.filtered(list, named: $0) } ?? list)
            }
            let found = try? answer.get()
            let failure: ClientError? = if case .failure(let error) = answer { error } else { nil }
            failures.append(failure)
            entries.append(json(instance, failure, [("agencies", .array((found?.agencies ?? []).map(JSON.string))),
                                                    ("stations", found?.stations.json ?? .null)]))
            guard let found else {
                if let failure, !invocation.json { printError("stopsheetctl: \(TerminalText("\(instance.name): \(line(instance, failure))"))") }
                continue
            }
            page.blank()
            page.paragraph(heading(found.agencies, instance))
            Rendering.stations(found.stations.value, named: name, indent: 2, into: &page)
        }
        if entries.isEmpty && !invocation.json {
            throw .client(.stillWaiting("no stopsheetd instance to ask: no socket in \(invocation.sockets.runDirectory)"), hint: nil)
        }
        print(invocation.json ? SafeJSON.text(.array(entries)) : page.text, terminator: invocation.json ? "\n" : "")
        return status(failures)
    }

    /// `CTA (stopsheetd)`: the agencies the instance serves, then its name.
    static func heading(_ agencies: [String], _ instance: Instance) -> TerminalText {
        TerminalText("\(agencyNames(agencies)) (\(instance.name))")
    }

    static func agencyNames(_ agencies: [String]) -> String {
        agencies.isEmpty ? "agency not named" : agencies.joined(separator: ", ")
    }

    /// `CTA · America/Chicago · ready · 143 stations, 17 alerts`, then the feed's time; or why
    /// there is none.
    static func lines(_ entry: InstanceHealth) -> [TerminalText] {
        switch entry.health {
        case .success(let health):
            return [TerminalText("\(agencyNames(health.agencies)) · \(health.timeZone.value ?? "zone not known") · \(health.status.rawValue) · "
                        + "\(health.stations.count) stations, \(health.alerts.count) alerts"),
                    TerminalText(health.alerts.producedAt.value.map { "feed produced at \($0)" } ?? "feed time not known")]
        case .failure(let error):
            return [TerminalText(line(entry.instance, error))]
        }
    }

    static func line(_ instance: Instance, _ error: ClientError) -> String {
        error.isNotRunning ? "not running (nothing listens on \(instance.socketPath))" : "not answering: \(error)"
    }

    /// One instance's entry under `--json`: its name and socket, whether it runs, what it
    /// answered (`members`, null where it did not), and why a running one did not answer.
    static func json(_ instance: Instance, _ failure: ClientError?, _ members: [(String, JSON)]) -> JSON {
        let running = !(failure?.isNotRunning ?? false)
        var object = JSONObject([("instance", .string(instance.name)), ("socket", .string(instance.socketPath)), ("running", .bool(running))])
        for (key, value) in members { object.append(key, value) }
        object.append("error", running ? failure.map { .string("\($0)") } ?? .null : .null)
        return .object(object)
    }

    /// Success when every running instance answered; else the first such failure's status.
    static func status(_ failures: [ClientError?]) -> Int32 {
        failures.lazy.compactMap { $0 }.first { !$0.isNotRunning }.map { Failure.client($0, hint: nil).status } ?? ExitStatus.success
    }
}
