/// Everything the daemon serves, fixed at one moment: the stations, the live alerts with their
/// kinds at `builtAt`, and each station's stop sheet encoded once. Immutable; a refresh or a
/// passing time boundary builds a new one, which is swapped in whole.
public struct Snapshot: Sendable {
    public let builtAt: Instant
    /// Nil until the first good station load.
    public let stations: StationDirectory?
    /// The decoded alert set (before the clock); nil until the first good alert load.
    public let alerts: [Alert]?
    /// Alerts live at `builtAt` with their kinds, de-duplicated by id, in upstream order.
    public let liveAlerts: [LiveAlert]
    /// The first moment after `builtAt` at which an alert starts or ends: rebuild then.
    public let nextBoundary: Instant?
    /// The encoded `stopSheet` result of each station, in the directory's station order.
    private let encodedSheets: [[UInt8]]
    private let matching: AlertMatching

    public static func build(stations: StationDirectory?, alerts: [Alert]?, now: Instant) -> Snapshot {
        Snapshot(stations: stations, alerts: alerts, now: now)
    }

    private init(stations: StationDirectory?, alerts: [Alert]?, now: Instant) {
        builtAt = now
        self.stations = stations
        self.alerts = alerts
        var seen: Set<String> = []
        var live: [LiveAlert] = []
        var boundary: Instant?
        for alert in alerts ?? [] where seen.insert(alert.id).inserted {
            if let change = alert.nextChange(after: now) { boundary = min(boundary ?? change, change) }
            if let kind = alert.kind(at: now) { live.append(LiveAlert(alert: alert, kind: kind)) }
        }
        liveAlerts = live
        nextBoundary = boundary
        let matching = AlertMatching(live.map(\.alert))
        self.matching = matching
        // Each alert is encoded once, and so is each distinct set of alerts that applies to some
        // station (a line's stations share one): building is then linear in stations + alerts
        // with a small constant, not stations × alerts-per-station encodings.
        let encodedAlerts = live.map(\.json.encoded)
        var membersBySet: [[Int]: EncodedAlertMembers] = [:]
        let noAlerts = StopSheet.encodedAlertMembers([], encodedAlerts: [])
        var sheets: [[UInt8]] = []
        sheets.reserveCapacity(stations?.count ?? 0)
        var scratch: [UInt8] = []
        // Stations are read in place: a `for station in` loop copies each one, retains included,
        // and that was a tenth of the build.
        (stations?.stations ?? []).withUnsafeBufferPointer { stations in
            for index in stations.indices {
                var members = noAlerts
                if alerts != nil {
                    let positions = matching.alerts(applyingTo: stations[index])
                    if let known = membersBySet[positions] {
                        members = known
                    } else {
                        members = StopSheet.encodedAlertMembers(positions.map { live[$0] }, encodedAlerts: positions.map { encodedAlerts[$0] })
                        membersBySet[positions] = members
                    }
                }
                sheets.append(StopSheet.encoded(stationID: stations[index].id, stationName: stations[index].name, stepFree: stations[index].stepFree,
                                               alertMembers: members, scratch: &scratch))
            }
        }
        encodedSheets = sheets
    }

    private static func alerts(applyingTo station: Station, _ live: [LiveAlert], _ matching: AlertMatching) -> [LiveAlert] {
        matching.alerts(applyingTo: station).map { live[$0] }
    }

    /// Live alerts that apply to a station, in dialog order.
    public func alerts(applyingTo station: Station) -> [LiveAlert] {
        StopSheet.dialogOrder(Self.alerts(applyingTo: station, liveAlerts, matching))
    }

    /// The encoded `stopSheet` result for a station or platform id, when stations are loaded.
    public func encodedStopSheet(stopID: String) -> [UInt8]? {
        guard let index = stations?.index(for: stopID) else { return nil }
        return encodedSheets[index]
    }

    /// `encodedStopSheet(stopID:)` for a decimal stop id given as bytes; nil also for any id
    /// that is not a canonical decimal (see `StationDirectory.index(forDecimalStopID:)`).
    public func encodedStopSheet(decimalStopID bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        guard let index = stations?.index(forDecimalStopID: bytes) else { return nil }
        return encodedSheets[index]
    }

    public func stopSheet(for station: Station) -> StopSheet {
        StopSheet(station: station, alerts: alerts == nil ? nil : alerts(applyingTo: station))
    }
}
