import StopSheetCore

/// A core `Snapshot` with its answers encoded once, when it is swapped into the `Store`: each
/// station's `stopSheet` result as bytes and the decimal stop-id index that finds one from a
/// request's bytes. Immutable and shared by reference, so a reader copies one pointer; built on
/// whichever thread swaps it in, read from any.
public final class EncodedSnapshot: Sendable {
    public let snapshot: Snapshot
    /// The zone the answers show their times in.
    public let zone: TimeZoneRules
    /// The encoded `stopSheet` result of each station, in the directory's station order.
    private let sheets: [[UInt8]]
    private let decimalIndex: DecimalStopIndex

    public init(_ snapshot: Snapshot, zone: TimeZoneRules) {
        self.snapshot = snapshot
        self.zone = zone
        sheets = Self.encodeSheets(snapshot, zone: zone)
        decimalIndex = DecimalStopIndex(snapshot.stations)
    }

    /// The encoded `stopSheet` result for a station or platform id, when stations are loaded,
    /// without the answer's `data` member (it moves with the clock; these bytes only with the
    /// data, so they are what to compare between snapshots).
    public func stopSheet(stopID: String) -> [UInt8]? {
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
    public func stopSheet(at index: Int) -> [UInt8] { sheets[index] }

    public var stationCount: Int { sheets.count }

    /// Each alert is encoded once, and so is each distinct set of alerts that applies to some
    /// station (a line's stations share one): building is then linear in stations + alerts with
    /// a small constant, not stations × alerts-per-station encodings.
    private static func encodeSheets(_ snapshot: Snapshot, zone: TimeZoneRules) -> [[UInt8]] {
        let live = snapshot.liveAlerts
        let encodedAlerts = live.map { $0.json(in: zone).encoded }
        var membersBySet: [[Int]: EncodedAlertMembers] = [:]
        let noAlerts = StopSheet.encodedAlertMembers([], encodedAlerts: [], zone: zone)
        var sheets: [[UInt8]] = []
        sheets.reserveCapacity(snapshot.stations?.count ?? 0)
        var scratch: [UInt8] = []
        // Stations are read in place: a `for station in` loop copies each one, retains included.
        (snapshot.stations?.stations ?? []).withUnsafeBufferPointer { stations in
            for index in stations.indices {
                var members = noAlerts
                if snapshot.alerts != nil {
                    let positions = snapshot.alertPositions(applyingTo: stations[index])
                    if let known = membersBySet[positions] {
                        members = known
                    } else {
                        members = StopSheet.encodedAlertMembers(positions.map { live[$0] }, encodedAlerts: positions.map { encodedAlerts[$0] }, zone: zone)
                        membersBySet[positions] = members
                    }
                }
                sheets.append(StopSheet.encoded(stationID: stations[index].id, stationName: stations[index].name, stepFree: stations[index].stepFree,
                                               agency: stations[index].agencyName,
                                               alertMembers: members, scratch: &scratch))
            }
        }
        return sheets
    }
}
