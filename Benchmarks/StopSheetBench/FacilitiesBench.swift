import StopSheetCore
import StopSheetDaemon

/// `facilities --conditions 4000 --stations 100 --repeat 9`: lift status at scale.
/// 1. A SIRI-FM body of `conditions` `FacilityCondition`s (a `Facility` with its code, class and
///    `StopPlaceRef`, a status, a description and a validity period each) read and decoded as the
///    daemon does (`FacilitiesBody.decode`: libxml2, then the core's decoder); the median time.
/// 2. A status refresh that changes one unit: `stations` synthetic stations with pathways, an
///    elevator pathway per station named by its `facility_id`, units spread over them, a tenth of
///    them out; the snapshot built once, then again with one unit gone out, as the store does
///    (`previous`): how many stations' `now` the second build encoded, and its median time.
func runFacilitiesBench(_ options: Options) {
    let conditions = options.int("conditions", 4000), stationCount = options.int("stations", 100), repeats = max(1, options.int("repeat", 9))
    var xml = #"<?xml version="1.0" encoding="UTF-8"?><Siri xmlns="http://www.siri.org.uk/siri" version="2.0"><ServiceDelivery>"#
        + "<ResponseTimestamp>2026-09-17T08:00:00+02:00</ResponseTimestamp><FacilityMonitoringDelivery version=\"2.0\">"
    let statuses = ["available", "available", "available", "notAvailable", "partiallyAvailable", "unknown"]
    for index in 0..<conditions {
        xml += "<FacilityCondition><Facility><FacilityCode>L\(index)</FacilityCode><Description>Lift \(index) street to platform</Description>"
            + "<FacilityClass>lift</FacilityClass><FacilityLocation><StopPlaceRef>S\(index % stationCount)</StopPlaceRef></FacilityLocation></Facility>"
            + "<FacilityStatus><Status>\(statuses[index % statuses.count])</Status><Description>Aufzug \(index) außer Betrieb</Description></FacilityStatus>"
            + "<ValidityPeriod><StartTime>2026-09-16T22:15:00+02:00</StartTime><EndTime>2026-09-18T12:00:00+02:00</EndTime></ValidityPeriod></FacilityCondition>"
    }
    xml += "</FacilityMonitoringDelivery></ServiceDelivery></Siri>"
    let body = Array(xml.utf8)
    var parse: [Double] = []
    var feed: FacilitiesDecoder.Feed?
    for _ in 0..<repeats {
        let started = monotonicNanos()
        do { feed = try FacilitiesBody.decode(body, local: .utc) } catch { fail("the SIRI-FM body did not decode: \(error)") }
        parse.append(Double(monotonicNanos() - started) / 1e6)
    }
    print("siri_conditions=\(feed!.units.count) body_bytes=\(body.count) parse_ms=\(format(parse.sorted()[parse.count / 2], 3))")

    // Stations with an elevator each, named by its facility_id; units L<i> at station S<i % n>.
    var stops = "stop_id,stop_name,location_type,parent_station,wheelchair_boarding\n"
    var pathways = "pathway_id,from_stop_id,to_stop_id,pathway_mode,is_bidirectional,facility_id\n"
    for station in 0..<stationCount {
        let s = "S\(station)"
        stops += "\(s),Station \(station),1,,1\n\(s)E,Entrance,2,\(s),1\n\(s)N1,,3,\(s),\n\(s)N2,,3,\(s),\n\(s)P,Platform,0,\(s),1\n"
        pathways += "\(s)W1,\(s)E,\(s)N1,1,1,\n\(s)EL,\(s)N1,\(s)N2,5,1,L\(station)\n\(s)W2,\(s)N2,\(s)P,1,1,\n"
    }
    let directory: StationDirectory
    do {
        var decoded = try GTFSStopsDecoder.decode(Array(stops.utf8))
        decoded.topologies = try GTFSPathwaysDecoder.decode(stops: Array(stops.utf8), pathways: Array(pathways.utf8)).stations
        directory = StationDirectory(decoded)
    } catch {
        fail("cannot decode the synthetic stations: \(error)")
    }
    let now = Instant(secondsSince1970: 1_789_632_000)
    var units = (0..<conditions).map { index in
        FacilityUnit(unitID: "L\(index)", facility: .elevator, status: index % 10 == 3 ? .notAvailable : .available,
                       location: .init(stopIDs: ["S\(index % stationCount)"]))
    }
    func data() -> FacilityData { FacilityData(units: units, lastGoodLoad: now, staleAfterSeconds: 300) }
    let first = EncodedSnapshot(Snapshot.build(stations: directory, alerts: [], facilities: data(), now: now), zone: .utc)
    // One unit that was available goes out.
    guard let changed = units.firstIndex(where: { $0.status == .available }) else { fail("no available unit") }
    units[changed].status = .notAvailable
    var rebuild: [Double] = []
    var second: EncodedSnapshot?
    for _ in 0..<repeats {
        let started = monotonicNanos()
        second = EncodedSnapshot(Snapshot.build(stations: directory, alerts: [], facilities: data(), now: now), zone: .utc, previous: first)
        rebuild.append(Double(monotonicNanos() - started) / 1e6)
    }
    let out = directory.stations.filter { second!.snapshot.facilityUnits[$0.id] != nil }.count
    print("stations=\(directory.count) units=\(units.count) stations_with_a_unit_out=\(out) "
        + "rebuild_ms=\(format(rebuild.sorted()[rebuild.count / 2], 3))")
}
