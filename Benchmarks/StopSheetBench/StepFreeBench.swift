import Glibc

import StopSheetCore
import StopSheetDaemon

/// `step-free --stations 100 --pathways 80 --outages 20 --repeat N [--without 1]`: what step-free now
/// adds to an alert refresh's snapshot build (`Snapshot.build` and `EncodedSnapshot`) on a large
/// metro: a synthetic feed of `stations` stations with `pathways` pathways each (the issue's
/// hundred stations and 8,000 pathways by default), every mode and both directions, 2 platforms
/// with a boarding area each and 4 entrances (one marked not step-free) per station; alerts: an
/// elevator outage naming a node at an elevator's end at `outages` stations, and a plain station
/// alert at every third. Decoding is not timed. `--without 1` builds the same stations with their
/// topologies dropped (each sheet's `now` then on basis `stations`): the difference of the two
/// is what the pathways cost. Prints the median build time; callgrind's difference between
/// `--repeat 2` and `--repeat 1` is one build's instructions.
func runStepFreeBench(_ options: Options) {
    let stationCount = options.int("stations", 100), perStation = options.int("pathways", 80), outages = options.int("outages", 20)
    var stops = "stop_id,stop_name,location_type,parent_station,wheelchair_boarding\n"
    var pathways = "pathway_id,from_stop_id,to_stop_id,pathway_mode,is_bidirectional\n"
    var alerts: [Alert] = []
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    func random(_ bound: Int) -> Int {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((seed >> 33) % UInt64(bound))
    }
    let nodeCount = 30
    for station in 0..<stationCount {
        let s = "S\(station)"
        stops += "\(s),Station \(station),1,,1\n"
        var locations: [String] = []
        for entrance in 1...4 {
            stops += "\(s)E\(entrance),Entrance,2,\(s),\(entrance == 4 ? 2 : 1)\n"
            locations.append("\(s)E\(entrance)")
        }
        for platform in 1...2 {
            stops += "\(s)P\(platform),Platform \(platform),0,\(s),\n\(s)B\(platform),,4,\(s)P\(platform),\n"
            locations += ["\(s)P\(platform)", "\(s)B\(platform)"]
        }
        for node in 1...nodeCount {
            stops += "\(s)N\(node),,3,\(s),\n"
            locations.append("\(s)N\(node)")
        }
        var elevatorEnd: String?
        for index in 0..<perStation {
            // A spine through the nodes so that most of the station hangs together, then random links.
            let from = index < nodeCount ? locations[index % locations.count] : locations[random(locations.count)]
            let to = index < nodeCount ? "\(s)N\(index + 1)" : locations[random(locations.count)]
            let mode = index < nodeCount ? [1, 5, 2, 3, 6][index % 5] : 1 + random(7)
            if mode == 5, elevatorEnd == nil, to.contains("N") { elevatorEnd = to }
            pathways += "\(s)W\(index),\(from),\(to),\(mode),\(random(5) == 0 ? 0 : 1)\n"
        }
        if station % max(1, stationCount / max(1, outages)) == 0, alerts.count < outages * 2, let elevatorEnd {
            alerts.append(Alert(id: "out-\(station)", kindSource: .fromTime, headline: "Elevator out of service", description: "",
                                scopes: [.station(elevatorEnd)], details: AlertDetails(effect: "ACCESSIBILITY_ISSUE")))
        }
        if station % 3 == 0 {
            alerts.append(Alert(id: "note-\(station)", kindSource: .fromTime, headline: "Platform works", description: "", scopes: [.station(s)]))
        }
    }
    let directory: StationDirectory
    do {
        var decoded = try GTFSStopsDecoder.decode(Array(stops.utf8))
        let topology = try GTFSPathwaysDecoder.decode(stops: Array(stops.utf8), pathways: Array(pathways.utf8))
        decoded.topologies = options.int("without", 0) == 1 ? [:] : topology.stations
        directory = StationDirectory(decoded)
    } catch {
        fail("cannot decode the synthetic feed: \(error)")
    }
    let pathwayCount = directory.topologies.values.reduce(0) { $0 + $1.pathways.count }
    let now = Instant(secondsSince1970: 1_764_669_600)
    var times: [Double] = []
    var last: EncodedSnapshot?
    for _ in 0..<max(1, options.int("repeat", 9)) {
        let started = monotonicNanos()
        // An alert refresh's build after the first, as the store makes it (`previous`).
        last = EncodedSnapshot(Snapshot.build(stations: directory, alerts: alerts, now: now), zone: .utc, previous: last)
        times.append(Double(monotonicNanos() - started) / 1e6)
    }
    // Outside the timed builds (and the same in every run, so callgrind's difference leaves it out).
    let partial = directory.stations.filter { last!.snapshot.stopSheet(for: $0).accessibilityButton.now.stepFree == .partial }.count
    let median = times.sorted()[times.count / 2]
    print("stations=\(directory.count) pathways=\(pathwayCount) alerts=\(alerts.count) partial=\(partial) build_ms=\(format(median, 3))")
}
