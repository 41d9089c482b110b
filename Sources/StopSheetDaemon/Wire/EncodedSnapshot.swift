import StopSheetCore
import StopSheetProtocol

/// A core `Snapshot` with its answers encoded once, when it is swapped into the `Store`: each
/// station's `stopSheet` result as bytes and the decimal stop-id index that finds one from a
/// request's bytes. Immutable and shared by reference, so a reader copies one pointer; built on
/// whichever thread swaps it in, read from any.
public final class EncodedSnapshot: Sendable {
    public let snapshot: Snapshot
    /// The zone the answers show their times in.
    public let zone: TimeZoneRules
    /// The members of each station's `stopSheet` result, in the directory's station order.
    private let sheets: [EncodedMembers]
    private let decimalIndex: DecimalStopIndex
    /// The `stations` answer's order (`StationsByName`): positions in the directory's stations.
    public let stationsByName: [Int]
    /// Each station's `accessibilityButton.now` encoded as it is while no facility outage applies
    /// (nil where one did at this snapshot): it follows the stations data alone, so an alert
    /// refresh takes it from the snapshot before instead of encoding it again.
    private let quietNow: [PreEncoded<Answer.StepFreeNow>?]
    /// The `now` of each station where a facility outage applied, with what it was made from
    /// (`Snapshot.verdictInputs`): the next build of the same stations load in the same zone
    /// keeps those whose inputs did not change, so a lift-status refresh that changes one unit
    /// encodes that unit's stations alone.
    private let loudNow: [Int: (inputs: Snapshot.VerdictInputs, now: PreEncoded<Answer.StepFreeNow>)]
    /// How many stations' `now` this build encoded (for `make bench`).
    public let encodedNowCount: Int

    /// `previous`: the snapshot this one replaces. When both have the same stations load (a change
    /// of the alerts or the zone), its name order and quiet `now`s are reused, not made again; in
    /// the same zone too, so are its encodings of the alerts, the sets and the sheets that did not
    /// change (`Kept`).
    public init(_ snapshot: Snapshot, zone: TimeZoneRules, previous: EncodedSnapshot? = nil) {
        self.snapshot = snapshot
        self.zone = zone
        let same = previous.flatMap { Self.sameLoad($0.snapshot.stations, snapshot.stations) ? $0 : nil }
        let sameZone = same.flatMap { $0.zone == zone ? $0 : nil }
        (sheets, quietNow, loudNow, encodedNowCount, kept) = Self.encodeSheets(snapshot, zone: zone, quietNow: same?.quietNow, loudNow: sameZone?.loudNow ?? [:],
                                                                               kept: sameZone?.kept)
        decimalIndex = DecimalStopIndex(snapshot.stations)
        stationsByName = same?.stationsByName ?? StationsByName.order(snapshot.stations)
    }

    /// The same stations load: one directory value, its stations in the same storage.
    private static func sameLoad(_ one: StationDirectory?, _ other: StationDirectory?) -> Bool {
        guard let one, let other else { return false }
        return one.stations.withUnsafeBufferPointer { first in
            other.stations.withUnsafeBufferPointer { second in first.baseAddress == second.baseAddress && first.count == second.count }
        }
    }

    /// The members of the `stopSheet` result for a station or platform id, when stations are
    /// loaded, without the answer's `data` member (it moves with the clock; these bytes only with
    /// the data, so they are what to compare between snapshots).
    func stopSheet(stopID: String) -> EncodedMembers? {
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
    func stopSheet(at index: Int) -> EncodedMembers { sheets[index] }

    public var stationCount: Int { sheets.count }

    /// What each sheet was made from, for the next alert refresh (`Kept`).
    private let kept: Kept

    /// What a snapshot keeps of its encoding for the one that replaces it with the same stations
    /// load in the same zone (an alert refresh): each alert's encoding by id, with the alert it
    /// was made from; each set of alerts by its alerts' ids; and each station's sheet with the set
    /// and `now` it was made from. An alert refresh then encodes only what changed: the alerts
    /// that changed, the sets that hold them, and the sheets of the stations whose set or `now`
    /// changed.
    private struct Kept {
        var alerts: [String: (alert: LiveAlert, encoded: PreEncoded<Answer.Alert>, advisory: PreEncoded<Answer.Advisory>?)] = [:]
        var sets: [[String]: EncodedAlertMembers] = [:]
        /// Per station: the set and the `now` its sheet was made with.
        var inputs: [(set: EncodedAlertMembers, now: PreEncoded<Answer.StepFreeNow>)] = []
        var sheets: [EncodedMembers] = []
    }

    /// Each alert is encoded once (and each advisory), and so is each distinct set of alerts that
    /// applies to some station (a line's stations share one), and each button's fixed part:
    /// building is then linear in stations + alerts with a small constant, not stations ×
    /// alerts-per-station encodings. `before`: what the snapshot replaced kept, when it had the
    /// same stations load in the same zone.
    private static func encodeSheets(_ snapshot: Snapshot, zone: TimeZoneRules, quietNow reusable: [PreEncoded<Answer.StepFreeNow>?]?,
                                     loudNow previous: [Int: (inputs: Snapshot.VerdictInputs, now: PreEncoded<Answer.StepFreeNow>)], kept before: Kept?)
        -> ([EncodedMembers], [PreEncoded<Answer.StepFreeNow>?], [Int: (inputs: Snapshot.VerdictInputs, now: PreEncoded<Answer.StepFreeNow>)], Int, Kept) {
        var loudNow: [Int: (inputs: Snapshot.VerdictInputs, now: PreEncoded<Answer.StepFreeNow>)] = [:]
        var encodedCount = 0
        var kept = Kept()
        let live = snapshot.liveAlerts
        var unchanged = Array(repeating: false, count: live.count)
        var encodedAlerts: [PreEncoded<Answer.Alert>] = []
        var encodedAdvisories: [PreEncoded<Answer.Advisory>?] = []
        encodedAlerts.reserveCapacity(live.count)
        encodedAdvisories.reserveCapacity(live.count)
        for (position, alert) in live.enumerated() {
            if let old = before?.alerts[alert.alert.id], old.alert == alert {
                unchanged[position] = true
                encodedAlerts.append(old.encoded)
                encodedAdvisories.append(old.advisory)
            } else {
                encodedAlerts.append(alert.encoded(in: zone))
                encodedAdvisories.append(AccessibilityAdvisory(alert)?.encoded(in: zone))
            }
            kept.alerts[alert.alert.id] = (alert, encodedAlerts[position], encodedAdvisories[position])
        }
        var membersBySet: [[Int]: EncodedAlertMembers] = [:]
        let noAlerts = before?.sets[[]] ?? StopSheet.encodedAlertMembers([], encodedAlerts: [], encodedAdvisories: [])
        kept.sets[[]] = noAlerts
        var buttons: [EncodedButton] = []
        var sheets: [EncodedMembers] = []
        sheets.reserveCapacity(snapshot.stations?.count ?? 0)
        kept.inputs.reserveCapacity(snapshot.stations?.count ?? 0)
        var quietNow = reusable ?? Array(repeating: nil, count: snapshot.stations?.count ?? 0)
        // Stations are read in place: a `for station in` loop copies each one, retains included.
        (snapshot.stations?.stations ?? []).withUnsafeBufferPointer { stations in
            for index in stations.indices {
                var members = noAlerts
                var positions: [Int] = []
                if snapshot.alerts != nil {
                    positions = snapshot.alertPositions(applyingTo: stations[index])
                    if let known = membersBySet[positions] {
                        members = known
                    } else {
                        let ids = positions.map { live[$0].alert.id }
                        if let old = before?.sets[ids], positions.allSatisfy({ unchanged[$0] }) {
                            members = old
                        } else {
                            members = StopSheet.encodedAlertMembers(positions.map { live[$0] }, encodedAlerts: positions.map { encodedAlerts[$0] },
                                                                    encodedAdvisories: positions.compactMap { encodedAdvisories[$0] })
                        }
                        membersBySet[positions] = members
                        kept.sets[ids] = members
                    }
                }
                let (stepFree, from, agency) = (stations[index].stepFree, stations[index].stepFreeFrom, stations[index].agencyName)
                // A feed has one agency or a few: a short list beats hashing the name per station.
                let button = buttons.first { $0.stepFree == stepFree && $0.from == from && $0.agency == agency } ?? {
                    buttons.append(EncodedButton(stepFree, from: from, agency: agency))
                    return buttons[buttons.count - 1]
                }()
                let now: PreEncoded<Answer.StepFreeNow>
                if snapshot.hasFacilityOutage(at: stations[index], amongAlertsAt: positions) {
                    let inputs = snapshot.verdictInputs(for: stations[index], alertPositions: positions)
                    if let kept = previous[index], kept.inputs == inputs {
                        now = kept.now
                    } else {
                        now = snapshot.stepFreeNow(for: stations[index], inputs: inputs).encoded(in: zone)
                        encodedCount += 1
                    }
                    loudNow[index] = (inputs, now)
                } else if let quiet = quietNow[index] {
                    now = quiet
                } else {
                    now = snapshot.stepFreeNow(for: stations[index], alertPositions: []).encoded(in: zone)
                    encodedCount += 1
                    quietNow[index] = now
                }
                // The same stations load in the same zone: the same name and button, so the same
                // set and `now` make the same sheet.
                if let before, before.inputs[index].set === members, before.inputs[index].now.isStored(as: now) {
                    sheets.append(before.sheets[index])
                } else {
                    sheets.append(button.sheet(stationID: stations[index].id, stationName: stations[index].name, alertMembers: members, now: now))
                }
                kept.inputs.append((members, now))
            }
        }
        kept.sheets = sheets
        return (sheets, quietNow, loudNow, encodedCount, kept)
    }
}
