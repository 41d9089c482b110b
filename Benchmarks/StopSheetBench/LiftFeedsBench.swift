import Glibc
import StopSheetCore
import StopSheetDaemon

/// `lift-feeds --feed fasta|idfm-csv|idfm-json --fasta 3500 --idfm 850 --repeat 9 --hold 20` (issue 52): the two feeds that name no stop,
/// at their real sizes, generated in their real shapes:
/// - DB FaSta: `fasta` units (3 % `INACTIVE`, 1.5 % `UNKNOWN`) at `fasta / 3` stations spread over
///   Germany, each with DB's station number and coordinates within about 60 m of its station;
/// - IDFM "état des ascenseurs": `idfm` lifts at `idfm / 3` zones around Paris, as the CSV export
///   (`;`, CRLF, a byte order mark) and as the API's JSON.
/// Each body is decoded as the daemon does (`FacilitiesBody.decode`) and joined to a station
/// directory of those stations, each with its coordinates and a platform (`FacilityData.joined`,
/// whatever join the daemon has: units placed, and at no station), medians of `repeat`; and the
/// memory the decoded units hold: the process's resident set grown by holding `hold` decoded
/// copies, divided by `hold` (the body itself, which the daemon keeps too, is `body_bytes`).
/// One feed a run (`feed`), so that it is measured in a fresh process whose heap has nothing
/// freed to reuse.
func runLiftFeedsBench(_ options: Options) {
    let fastaUnits = options.int("fasta", 3500), idfmLifts = options.int("idfm", 850)
    let repeats = max(1, options.int("repeat", 9)), hold = max(1, options.int("hold", 20)), only = options.string("feed")
    guard ["fasta", "idfm-csv", "idfm-json"].contains(only) else { fail("--feed is fasta, idfm-csv or idfm-json") }
    var random = SplitMix(seed: 52)

    // FaSta: stations over Germany (47.3–55.0 N, 5.9–15.0 E), three units each.
    let germany = (0..<max(1, fastaUnits / 3)).map { _ in (random.unit() * 7.7 + 47.3, random.unit() * 9.1 + 5.9) }
    var fasta = "["
    for index in 0..<fastaUnits {
        let station = index % germany.count, (lat, lon) = germany[station]
        let roll = random.unit()
        let (state, explanation) = roll < 0.03 ? ("INACTIVE", "under maintenance") : roll < 0.045 ? ("UNKNOWN", "monitoring disrupted") : ("ACTIVE", "available")
        fasta += (index == 0 ? "" : ",") + #"{"description":"zu Gleis \#(index % 12 + 1)","equipmentnumber":\#(10_000_000 + index),"#
            + #""geocoordX":\#(lon + (random.unit() - 0.5) * 0.001),"geocoordY":\#(lat + (random.unit() - 0.5) * 0.0008),"#
            + #""operatorname":"DB InfraGO","state":"\#(state)","stateExplanation":"\#(explanation)","stationnumber":\#(station + 1),"#
            + #""type":"\#(index % 4 == 3 ? "ESCALATOR" : "ELEVATOR")"}"#
    }
    fasta += "]"

    // IDFM: zones around Paris (48.6–49.1 N, 2.0–2.7 E), three lifts each.
    let paris = (0..<max(1, idfmLifts / 3)).map { _ in (random.unit() * 0.5 + 48.6, random.unit() * 0.7 + 2.0) }
    var csv = "\u{FEFF}ZdcId;ZdCXEpsg2154;ZdCYEpsg2154;liftReason;liftStatus;liftMode;liftId;LiftPrivateId;liftSituation;liftDirection;liftStateUpdate;LiftState;ZdcName;ZdcCentroid\r\n"
    var results: [String] = []
    for index in 0..<idfmLifts {
        let zone = index % paris.count, (lat, lon) = paris[zone]
        let roll = random.unit()
        let (status, reason) = roll < 0.05 ? ("notavailable", "liftFailure") : roll < 0.15 ? ("", "") : ("available", "")
        let id = 70_000 + zone
        csv += "\(id);650511;6864202;\(reason);\(status);LocalTrain;\(index + 1);ASC_\(index);Niveau Intermédiaire - Quai \(index % 4 + 1);Sortie \(index % 3 + 1);"
            + "2026-09-17T08:00:00+02:00;1;Zone \(zone);\(lat),\(lon)\r\n"
        results.append(#"{"zdcid":"\#(id)","liftreason":"\#(reason)","liftstatus":"\#(status)","liftmode":"LocalTrain","liftid":"\#(index + 1)","#
            + #""liftsituation":"Niveau Intermédiaire - Quai \#(index % 4 + 1)","liftdirection":"Sortie \#(index % 3 + 1)","#
            + #""liftstateupdate":"2026-09-17T08:00:00+02:00","zdcname":"Zone \#(zone)","zdccentroid":"\#(lat),\#(lon)"}"#)
    }
    let api = #"{"total_count":\#(idfmLifts),"results":[\#(results.joined(separator: ","))]}"#

    let now = Instant(secondsSince1970: 1_789_632_000)
    for (name, body, stations, prefix) in [("fasta", Array(fasta.utf8), germany, "de:"), ("idfm-csv", Array(csv.utf8), paris, "IDFM:"),
                                           ("idfm-json", Array(api.utf8), paris, "IDFM:")] where name == only {
        let directory = stationDirectory(stations, prefix: prefix)
        // Memory first, before the timing loops leave freed pages behind.
        let before = processMemoryKiB(getpid(), "VmRSS") ?? 0
        var held: [FacilitiesDecoder.Feed] = []
        for _ in 0..<hold { held.append(decodeLifts(body, name)) }
        let heldKiB = Double((processMemoryKiB(getpid(), "VmRSS") ?? 0) - before) / Double(hold)
        var decode: [Double] = [], join: [Double] = []
        var feed = held[0]
        held.removeAll()
        var joined: FacilityJoin.Joined?
        for _ in 0..<repeats {
            let started = monotonicNanos()
            feed = decodeLifts(body, name)
            decode.append(Double(monotonicNanos() - started) / 1e6)
            let data = FacilityData(units: feed.units, lastGoodLoad: now, staleAfterSeconds: 300)
            let joinStarted = monotonicNanos()
            joined = data.joined(to: directory, at: now)
            join.append(Double(monotonicNanos() - joinStarted) / 1e6)
        }
        let placed = joined!.byStation.values.reduce(0) { $0 + $1.count }
        print("\(name) units=\(feed.units.count) out=\(feed.units.filter { $0.status == .notAvailable }.count) stations=\(directory.count) "
            + "body_bytes=\(body.count) decode_ms=\(format(decode.sorted()[decode.count / 2], 3)) join_ms=\(format(join.sorted()[join.count / 2], 3)) "
            + "at_a_station=\(placed) at_none=\(joined!.nowhere.count) held_kib=\(format(heldKiB, 0))")
    }
}

private func decodeLifts(_ body: [UInt8], _ name: String) -> FacilitiesDecoder.Feed {
    do { return try FacilitiesBody.decode(body, local: .utc) } catch { fail("the \(name) body did not decode: \(error)") }
}

/// A station (with its coordinates) and one platform at each point, the stations ids
/// `<prefix><n>` (FaSta's station n + 1 is `de:<n + 1>`; IDFM's zone z is `IDFM:<70000 + z>`).
private func stationDirectory(_ points: [(Double, Double)], prefix: String) -> StationDirectory {
    var stops = "stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station,wheelchair_boarding\n"
    for (index, (lat, lon)) in points.enumerated() {
        let id = prefix + String(prefix == "de:" ? index + 1 : 70_000 + index)
        stops += "\(id),Station \(index),\(lat),\(lon),1,,1\n\(id)P,Station \(index),\(lat),\(lon),0,\(id),1\n"
    }
    do {
        return StationDirectory(try GTFSStopsDecoder.decode(Array(stops.utf8)))
    } catch {
        fail("cannot decode the synthetic stations: \(error)")
    }
}

/// A small deterministic generator (SplitMix64), so that each run times the same bodies.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// A uniform value in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
