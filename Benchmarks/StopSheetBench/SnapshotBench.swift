
import Glibc

import StopSheetCore
import StopSheetDaemon
import ZoneInfo

/// `snapshot --alerts FILE --stations FILE --scales 1,10,100 --repeat N`: times what a refresh
/// builds before the swap, `Snapshot.build` and its wire encoding (`EncodedSnapshot`), from decoded data (decoding is not timed), for the real set and for
/// synthetic sets k times larger. Prints one line per scale: the median build's wall time
/// (`build_ms`), the building thread's CPU time (`cpu_ms`: what another process on the core does
/// not lengthen) and the last build's minor page faults (`faults`: the new memory it touched).
///
/// The synthetic ×k set is k copies of the network (stations, platforms and train alerts) with
/// distinct ids. Copy 0 is the real set. In copies 1…k−1 a station alert names its own copy's
/// stations, and a route or systemwide alert becomes an alert naming one station of its copy that
/// the route reaches (route alerts copied as such would reach every copy: k² matches, a shape no
/// real feed has). So each station's sheet stays about its real size and the work grows with the
/// data.
func runSnapshotBench(_ options: Options) {
    let alerts: [Alert]
    let platforms: [Platform]
    let chicago: TimeZoneRules
    do {
        chicago = try TimeZoneDatabase.rules(CTATime.zoneIdentifier)
        alerts = try AlertsDecoder.decode(readBytes(options.string("alerts")), chicago: chicago)
        platforms = try StationsDecoder.decode(readBytes(options.string("stations")))
    } catch {
        fail("cannot decode the fixtures: \(error)")
    }
    // The capture's moment, so the real alerts are live as they were that day.
    let now = CTATime.instant(options.string("now", "2015-02-14T14:35:00"), in: chicago)!
    let repeats = max(1, options.int("repeat", 9))
    let scales = options.string("scales", "1,10,100").split(separator: ",").compactMap { Int($0) }
    let base = StationDirectory(platforms: platforms)
    var previous: Double?
    for scale in scales {
        let (directory, scaledAlerts) = scale == 1 ? (base, alerts) : synthetic(base: base, platforms: platforms, alerts: alerts, copies: scale)
        var times: [Double] = []
        var cpuTimes: [Double] = []
        var lastFaults = 0
        var live = 0
        // Each build after the first is an alert refresh's: given the snapshot it replaces, as
        // the store gives it (what only the stations decide is taken from it).
        var replaced: EncodedSnapshot?
        for _ in 0..<repeats {
            let started = monotonicNanos()
            let startedCPU = threadCPUNanos()
            let faults = minorPageFaults()
            let encoded = EncodedSnapshot(Snapshot.build(stations: directory, alerts: scaledAlerts, now: now), zone: chicago, previous: replaced)
            let snapshot = encoded.snapshot
            replaced = encoded
            times.append(Double(monotonicNanos() - started) / 1e6)
            cpuTimes.append(Double(threadCPUNanos() - startedCPU) / 1e6)
            lastFaults = minorPageFaults() - faults
            live = snapshot.liveAlerts.count
        }
        let median = times.sorted()[times.count / 2]
        let perStation = median * 1000 / Double(directory.count)
        var line = "scale=\(scale) stations=\(directory.count) alerts=\(scaledAlerts.count) live=\(live) build_ms=\(format(median, 2)) cpu_ms=\(format(cpuTimes.sorted()[cpuTimes.count / 2], 2)) faults=\(lastFaults) us_per_station=\(format(perStation, 2))"
        if let previous { line += " growth=\(format(median / previous, 1))x" }
        print(line)
        previous = median
    }
}

private func synthetic(base: StationDirectory, platforms: [Platform], alerts: [Alert], copies: Int) -> (StationDirectory, [Alert]) {
    func copyID(_ id: String, _ copy: Int) -> String { copy == 0 ? id : "\(copy)-\(id)" }
    var allPlatforms: [Platform] = []
    var allAlerts: [Alert] = []
    allPlatforms.reserveCapacity(platforms.count * copies)
    for copy in 0..<copies {
        for platform in platforms {
            var clone = platform
            clone.stopID = copyID(platform.stopID, copy)
            clone.stationID = copyID(platform.stationID, copy)
            allPlatforms.append(clone)
        }
        for alert in alerts {
            var clone = alert
            clone.id = copyID(alert.id, copy)
            let named = alert.scopes.compactMap { scope -> String? in
                if case .station(let id) = scope { return id }
                return nil
            }
            if copy > 0 {
                var stops = named
                if stops.isEmpty {
                    let reached = base.stations.filter { station in alert.scopes.contains { reaches($0, station) } }
                    stops = reached.isEmpty ? [] : [reached[copy % reached.count].id]
                }
                clone.scopes = stops.map { .station(copyID($0, copy)) }
            }
            allAlerts.append(clone)
        }
    }
    return (StationDirectory(platforms: allPlatforms), allAlerts)
}

private func reaches(_ scope: AlertScope, _ station: Station) -> Bool {
    switch scope {
    case .systemwide: return true
    case .route(let route):
        return station.routes.contains(route) || (route == .purple && station.routes.contains(.purpleExpress))
    case .routeType(let type): return station.routeTypes.contains(type)
    case .agency(let agency): return station.agencyID.map { $0 == agency } ?? true
    case .station: return false
    }
}

private func readBytes(_ path: String) -> [UInt8] {
    guard let text = readSmallFile(path) else { fail("cannot read \(path)") }
    return Array(text.utf8)
}
