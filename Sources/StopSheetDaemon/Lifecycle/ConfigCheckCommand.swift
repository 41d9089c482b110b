import StopSheetCore

/// `stopsheetd --check-config [--config FILE] [flags]`, like `sshd -t` or `nginx -t`: checks
/// what the daemon would start with (flags, `STOPSHEETD_*` environment, the config file), prints
/// every problem as `file:line: …` on stderr and a verdict, serves nothing. Exit 0 when the daemon
/// would start (warnings allowed), 1 when it would refuse or a local source's body would not
/// load. Runs on the calling thread.
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
        if case .run(let config)? = checked.action {
            let problems = headersFileProblems(config) + localSourceProblems(config)
            checked.problems += problems
            if problems.contains(where: { $0.severity == .error }) { checked.action = nil }
        }
        for problem in checked.problems { printError(problem.description) }
        let refused = checked.action == nil
        printError(verdict(refused: refused, errors: checked.errors.count, warnings: checked.warnings.count))
        return refused ? 1 : 0
    }

    /// The last line: `stopsheetd: configuration OK`, with the problems counted when there are
    /// any (`configuration has errors (1 error, 2 warnings)`).
    static func verdict(refused: Bool, errors: Int, warnings: Int) -> String {
        let counts = [(errors, "error"), (warnings, "warning")]
            .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)\($0.0 == 1 ? "" : "s")" }.joined(separator: ", ")
        return "stopsheetd: \(refused ? "configuration has errors" : "configuration OK")\(counts.isEmpty ? "" : " (\(counts))")"
    }

    /// Each headers file is read as the start reads it: refused the same, in the same words, and
    /// when it loads, named with its header names alone.
    static func headersFileProblems(_ config: Config) -> [ConfigProblem] {
        [("--alerts-headers-file", config.alertsHeadersFile), ("--stations-headers-file", config.stationsHeadersFile),
         ("--facilities-headers-file", config.facilitiesHeadersFile), ("--facilities-inventory-headers-file", config.facilitiesInventoryHeadersFile),
         ("--facilities-stations-headers-file", config.facilitiesStationsHeadersFile),
         ("--topology-headers-file", config.topologyHeadersFile)]
            .compactMap { flag, path in
                guard let path else { return nil }
                do { _ = try RequestHeaders.load(path) } catch { return .error("\(flag): \(error)") }
                return nil
            }
    }

    /// A `file://` source is cheap to read, so it is read and decoded as the daemon would: a body
    /// that would not load is an error here rather than a daemon retrying it forever; a file not
    /// there (yet) is a warning. A remote source is not fetched: a check waits on nothing.
    static func localSourceProblems(_ config: Config) -> [ConfigProblem] {
        guard let zones = try? TimeZones(configured: nil) else { return [] }
        var problems: [ConfigProblem] = []
        for (cache, flag, url) in [(CacheName.alerts, "--alerts-url", config.alertsURL), (.stations, "--stations-url", config.stationsURL),
                                   (.facilities, "--facilities-url", config.facilitiesURL)] {
            guard let url, url.hasPrefix("file://"), let source = try? makeSource(url: url, options: HTTPOptions(version: StopSheetVersion.current)) else { continue }
            switch source.fetch(validators: nil) {
            case .success(.body(let bytes, _, _, _, _)):
                do {
                    _ = try CacheLoader(cache).decode(CacheLoader.Input(body: bytes, source: source, reading: config.reading, zones: zones,
                                                                        local: config.timeZone ?? .notKnown))
                } catch {
                    problems.append(.error("\(flag) \(source.url) would not load: \(Log.oneLine("\(error)", maxBytes: 400))"))
                }
            case .success(.notModified): break
            case .failure(let failure): problems.append(.warning("\(flag) \(source.url) cannot be read now: \(Log.oneLine(failure.message, maxBytes: 400))"))
            }
        }
        return problems + topologyProblems(config, zones: zones)
    }

    /// A `file://` `--topology-url` is read as a station load reads it: a map that would not
    /// decode is an error; one read against `file://` station data says, as warnings, the
    /// stations it refuses and the rows it skips (the first few, as `health.stations` does).
    static func topologyProblems(_ config: Config, zones: TimeZones) -> [ConfigProblem] {
        guard let url = config.topologyURL, url.hasPrefix("file://"),
              let source = try? makeSource(url: url, options: HTTPOptions(version: StopSheetVersion.current)) else { return [] }
        let map: DeployerMap
        switch source.fetch(validators: nil) {
        case .success(.body(let bytes, _, _, _, _)):
            do { map = try StationsLoad.tables(bytes, source: source, maxTableBytes: HTTPOptions.defaultMaxBodyBytes) } catch {
                return [.error("--topology-url \(source.url) would not load: \(Log.oneLine("\(error)", maxBytes: 400))")]
            }
        case .success(.notModified): return []
        case .failure(let failure): return [.warning("--topology-url \(source.url) cannot be read now: \(Log.oneLine(failure.message, maxBytes: 400))")]
        }
        guard let stationsURL = config.stationsURL, stationsURL.hasPrefix("file://"),
              let stations = try? makeSource(url: stationsURL, options: HTTPOptions(version: StopSheetVersion.current)),
              case .success(.body(let bytes, _, _, _, _)) = stations.fetch(validators: nil),
              var decoded = try? StationsBody.decoded(bytes, source: stations, reading: config.reading, maxTableBytes: HTTPOptions.defaultMaxBodyBytes)
        else { return [] }
        let before = decoded.notices.count
        do { try map.apply(to: &decoded) } catch {
            return [.error("--topology-url \(source.url) would not load: \(Log.oneLine("\(error)", maxBytes: 400))")]
        }
        let added = decoded.notices.first.filter { $0.file.hasPrefix(DeployerMap.noticePrefix) }
        var problems = added.map { ConfigProblem.warning("--topology-url \(source.url): \($0.file) line \($0.line): \(Log.oneLine($0.problem, maxBytes: 400))") }
        let unshown = decoded.notices.count - before - added.count
        if unshown > 0 { problems.append(.warning("--topology-url \(source.url): \(unshown) more rows or stations skipped")) }
        return problems
    }
}
