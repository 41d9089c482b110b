import StopSheetCore
import StopSheetProtocol

/// A core `Snapshot` with its answers encoded once, when it is swapped into the `Store`: each
/// station's `stopSheet` result without `data` and the decimal stop-id index that finds one from
/// a request's bytes. Immutable and shared by reference, so a reader copies one pointer; built on
/// whichever thread swaps it in — a refresher's or the reload's, or the serving loop's itself when
/// an alert's start or end passes (`Store.rebuildIfBoundaryPassed`) — and read from any.
public final class EncodedSnapshot: Sendable {
    public let snapshot: Snapshot
    /// The zone the answers show their times in.
    public let zone: TimeZoneRules
    /// Each station's `stopSheet` result without `data`, in the directory's station order.
    private let sheets: [EncodedSheet]
    /// The verdicts this build worked out of the stations on a map where something is out, by
    /// position in the directory; every other station's is its load's (`StationDirectory.quietVerdicts`).
    /// `stationMap` answers from them (`mapVerdict(at:)`), so a station's ways are worked out at
    /// most once per build, and a quiet station's once per load.
    private let outageVerdicts: [Int: StepFreeNow]
    /// The `now` of each station with nothing out (`StationDirectory.quietVerdicts`) encoded, by
    /// position in the directory; nil where no build of this stations load has needed it yet.
    /// It holds no time and no outage, so no zone: a build with the same stations load takes these
    /// from the snapshot it replaces, and an alert or lift-status refresh encodes only the `now`
    /// of the stations where something is out.
    private let quietNows: [PreEncoded<Answer.StepFreeNow>?]
    private let decimalIndex: DecimalStopIndex
    /// The `stations` answer's order (`StationsByName`): positions in the directory's stations.
    public let stationsByName: [Int]

    /// `previous`: the snapshot this one replaces. When both have the same stations load (a change
    /// of the alerts or the zone), its name order and its decimal index are kept, not made again.
    public init(_ snapshot: Snapshot, zone: TimeZoneRules, previous: EncodedSnapshot? = nil) {
        self.snapshot = snapshot
        self.zone = zone
        let sameLoad = previous.map { Self.sameLoad($0.snapshot.stations, snapshot.stations) } ?? false
        (sheets, outageVerdicts, quietNows) = Self.encodeSheets(snapshot, zone: zone, quietNows: sameLoad ? previous!.quietNows : nil)
        decimalIndex = sameLoad ? previous!.decimalIndex : DecimalStopIndex(snapshot.stations)
        stationsByName = sameLoad ? previous!.stationsByName : StationsByName.order(snapshot.stations)
    }

    /// The same stations load: one directory value, its stations in the same storage (a directory's
    /// `stations` is a constant, so one storage holds one list).
    private static func sameLoad(_ one: StationDirectory?, _ other: StationDirectory?) -> Bool {
        guard let one, let other else { return false }
        return one.stations.withUnsafeBufferPointer { first in
            other.stations.withUnsafeBufferPointer { second in first.baseAddress == second.baseAddress }
        }
    }

    /// The `stopSheet` result for a station or platform id, when stations are loaded, without
    /// `data` (it moves with the clock; these bytes only with the data, so they are what to
    /// compare between snapshots).
    func stopSheet(stopID: String) -> EncodedSheet? {
        stationIndex(stopID: stopID).map { sheets[$0] }
    }

    /// The position of a station or platform id's station in the directory. A decimal id (all
    /// of CTA's) is found from its bytes, without hashing a String.
    public func stationIndex(stopID: String) -> Int? {
        var stopID = stopID
        if let index = stopID.withUTF8({ decimalIndex.index(of: UnsafeRawBufferPointer($0)) }) { return index }
        return snapshot.stations?.index(for: stopID)
    }

    /// The sheet of the station at `index` (from `stationIndex`), without `data`.
    func stopSheet(at index: Int) -> EncodedSheet { sheets[index] }

    public var stationCount: Int { sheets.count }

    /// The verdict of the station at `index` when it is on a map; nil otherwise.
    func mapVerdict(at index: Int) -> StepFreeNow? {
        guard let stations = snapshot.stations, stations.stations.indices.contains(index) else { return nil }
        let verdict = outageVerdicts[index] ?? stations.quietVerdicts[index]
        return verdict.basis == .pathways ? verdict : nil
    }

    /// Each alert is encoded once (and each advisory), and so is each distinct set of alerts that
    /// applies to some station (a line's stations share one): building is then linear in
    /// stations + alerts, not stations × alerts-per-station encodings.
    /// `quietNows`: the quiet stations' `now` encoded by the builds before of the same stations
    /// load (nil: none).
    private static func encodeSheets(_ snapshot: Snapshot, zone: TimeZoneRules, quietNows kept: [PreEncoded<Answer.StepFreeNow>?]?)
        -> ([EncodedSheet], [Int: StepFreeNow], [PreEncoded<Answer.StepFreeNow>?]) {
        let live = snapshot.liveAlerts
        let alerts = live.map { $0.encoded(in: zone) }
        let advisories = live.map { AccessibilityAdvisory($0)?.encoded(in: zone) }
        var membersBySet: [[Int]: EncodedAlertMembers] = [:]
        var sheets: [EncodedSheet] = []
        var outageVerdicts: [Int: StepFreeNow] = [:]
        var quietNows = kept ?? Array(repeating: nil, count: snapshot.stations?.count ?? 0)
        sheets.reserveCapacity(snapshot.stations?.count ?? 0)
        // Stations are read in place: a `for station in` loop copies each one, retains included.
        (snapshot.stations?.stations ?? []).withUnsafeBufferPointer { stations in
            for index in stations.indices {
                let positions = snapshot.alerts == nil ? [] : snapshot.alertPositions(applyingTo: stations[index])
                let members = positions.isEmpty ? EncodedAlertMembers.none : membersBySet[positions] ?? {
                    let members = EncodedAlertMembers(positions.map { live[$0] }, encodedAlerts: positions.map { alerts[$0] },
                                                      encodedAdvisories: positions.compactMap { advisories[$0] })
                    membersBySet[positions] = members
                    return members
                }()
                let (now, quiet) = snapshot.stepFreeNow(at: index, alertPositions: positions)
                if !quiet, now.basis == .pathways { outageVerdicts[index] = now }
                let encodedNow = quiet ? quietNows[index] ?? {
                    let encoded = now.encoded(in: zone)
                    quietNows[index] = encoded
                    return encoded
                }() : now.encoded(in: zone)
                sheets.append(EncodedSheet(stationID: stations[index].id, stationName: stations[index].name, stepFree: stations[index].stepFree,
                                           from: stations[index].stepFreeFrom,
                                           agency: stations[index].agencyName, alerts: members,
                                           now: encodedNow))
            }
        }
        return (sheets, outageVerdicts, quietNows)
    }
}
