/// Everything the daemon serves, fixed at one moment: the stations, the live alerts with their
/// kinds at `builtAt` matched to stations, and the lift-status units joined to stations with
/// their statuses as they count at `builtAt` (`FacilityData`: stale data makes every unit `unknown`). Immutable; a refresh or a passing time boundary builds
/// a new one, which is swapped in whole. (Its wire encoding is the daemon's: `EncodedSnapshot`.)
public struct Snapshot: Sendable {
    public let builtAt: Instant
    /// Nil until the first good station load.
    public let stations: StationDirectory?
    /// The decoded alert set (before the clock); nil until the first good alert load.
    public let alerts: [Alert]?
    /// Alerts live at `builtAt` with their kinds, de-duplicated by id, in upstream order.
    public let liveAlerts: [LiveAlert]
    /// The lift-status data (nil until its first good load, or when not configured).
    public let facilities: FacilityData?
    /// The units not `available` at `builtAt`, by station id (`FacilityData.joined`): joined
    /// once per snapshot, not once per station.
    public let facilityUnits: [String: [FacilityUnit]]
    /// How many lift-status units are placed, off the map, ambiguous and otherwise unplaced (at
    /// no station, or no rule matched), every status counted; nil before both load. Worked out
    /// with the snapshot, so a `health` answer or a load's log line only reads it.
    public let facilityCounts: [FacilityPlacement.Count: Int]?
    /// How many lift-status units (every status) each join rule put at their stations, and how
    /// many are at no station; nil before both load.
    public let facilityJoinCounts: (joinedBy: [FacilityJoin.Rule: Int], nowhere: Int)?
    /// Every unit joined, `available` ones included (`facilityListing`'s): the one join of the
    /// snapshot, of which `facilityUnits` is the part not `available`.
    private let listed: FacilityJoin.Joined?
    /// The first moment after `builtAt` at which an alert starts or ends, or the lift-status data
    /// turns stale or an upcoming outage starts or ends: rebuild then.
    public let nextBoundary: Instant?
    private let matching: AlertMatching
    /// Each live alert's facility outage while it is active (nil otherwise), by position in
    /// `liveAlerts`: classified once per snapshot, not once per station.
    private let outages: [AlertOutage?]

    public static func build(stations: StationDirectory?, alerts: [Alert]?, facilities: FacilityData? = nil, now: Instant) -> Snapshot {
        Snapshot(stations: stations, alerts: alerts, facilities: facilities, now: now)
    }

    /// The same data as of `now` (a boundary passed), or with `facilities` replaced.
    public func rebuilt(facilities: FacilityData?? = .none, now: Instant) -> Snapshot {
        Snapshot(stations: stations, alerts: alerts, facilities: facilities ?? self.facilities, now: now)
    }

    private init(stations: StationDirectory?, alerts: [Alert]?, facilities: FacilityData?, now: Instant) {
        builtAt = now
        self.stations = stations
        self.alerts = alerts
        self.facilities = facilities
        let listed = stations.flatMap { stations in facilities.map { $0.joined(to: stations, at: now) } }
        self.listed = listed
        facilityUnits = listed?.notAvailable ?? [:]
        facilityJoinCounts = listed.map { ($0.joinedBy, $0.nowhere.count) }
        var seen: Set<String> = []
        var live: [LiveAlert] = []
        var boundary: Instant?
        for alert in alerts ?? [] where seen.insert(alert.id).inserted {
            if let change = alert.nextChange(after: now) { boundary = min(boundary ?? change, change) }
            if let kind = alert.kind(at: now) { live.append(LiveAlert(alert: alert, kind: kind)) }
        }
        liveAlerts = live
        outages = live.map { $0.kind == .active ? AlertOutage($0.alert) : nil }
        if let change = facilities?.nextChange(after: now) { boundary = min(boundary ?? change, change) }
        nextBoundary = boundary
        matching = AlertMatching(live.map(\.alert), stopsWithin: stations?.stopsWithin ?? [:])
        facilityCounts = listed.map { _ in
            var counts = Dictionary(uniqueKeysWithValues: FacilityPlacement.Count.allCases.map { ($0, 0) })
            for entry in Self.listing(listed, of: stations) {
                for (_, placement) in entry.units { counts[placement.count, default: 0] += 1 }
            }
            return counts
        }
    }

    /// Every lift-status unit at each station, `available` ones included, statuses as they count
    /// at `builtAt`, in the stations' order, each with its placement; then those at no station
    /// (`station` nil). `station`: that one alone. Empty before both load.
    public func facilityListing(at station: Station? = nil) -> [FacilityEntry] {
        Self.listing(listed, of: stations, at: station)
    }

    private static func listing(_ joined: FacilityJoin.Joined?, of stations: StationDirectory?, at station: Station? = nil) -> [FacilityEntry] {
        guard let stations, let joined else { return [] }
        let entry = { (station: Station, units: [FacilityUnit]) in
            let topology = stations.topologies[station.id]
            return FacilityEntry(station: station, units: units.map { ($0, FacilityPlacement.place($0, on: topology)) })
        }
        if let station { return [entry(station, joined.byStation[station.id] ?? [])] }
        let nowhere = joined.nowhere.isEmpty ? []
            : [FacilityEntry(station: nil, units: joined.nowhere.map { ($0, .unplaced(.noSuchStation, candidates: [])) })]
        return stations.stations.compactMap { station in joined.byStation[station.id].map { entry(station, $0) } } + nowhere
    }

    /// The units of one station (or of none) and where each is.
    public struct FacilityEntry: Sendable {
        public var station: Station?
        public var units: [(unit: FacilityUnit, placement: FacilityPlacement)]
    }

    /// The station table's rows whose stop is no station's, as notices; nil before both load.
    public func stationTableNotices() -> FeedNotices? {
        guard let stations, let facilities, !facilities.stationTable.isEmpty else { return nil }
        return facilities.stationTable.notices(against: stations)
    }

    /// Positions in `liveAlerts` of the alerts that apply to a station, in dialog order: the
    /// wire encoding keys its shared alert members by them.
    public func alertPositions(applyingTo station: Station) -> [Int] {
        StopSheet.dialogOrder(matching.alerts(applyingTo: station)) { liveAlerts[$0].kind }
    }

    /// Live alerts that apply to a station, in dialog order.
    public func alerts(applyingTo station: Station) -> [LiveAlert] {
        alertPositions(applyingTo: station).map { liveAlerts[$0] }
    }

    public func stopSheet(for station: Station) -> StopSheet {
        let positions = alerts == nil ? [] : alertPositions(applyingTo: station)
        return StopSheet(station: station, alerts: alerts == nil ? nil : positions.map { liveAlerts[$0] },
                         now: stepFreeNow(for: station, alertPositions: positions))
    }

    /// The station's step-free verdict at `builtAt`, from its pathways, the outages among the
    /// alerts at `alertPositions` (`alertPositions(applyingTo:)`, which a caller has already) and
    /// the lift-status units there.
    public func stepFreeNow(for station: Station, alertPositions: [Int]) -> StepFreeNow {
        StepFreeNow(station: station, topology: stations?.topologies[station.id], outages: alertPositions.compactMap { outages[$0] },
                    facilities: facilityUnits[station.id] ?? [])
    }

    /// `stepFreeNow(for:alertPositions:)` of the station at `index` in the directory, and whether
    /// nothing is out there (`quiet`): then it is the verdict the station load worked out
    /// (`StationDirectory.quietVerdicts`), and only a station where something is out is worked
    /// out afresh.
    public func stepFreeNow(at index: Int, alertPositions: [Int]) -> (verdict: StepFreeNow, quiet: Bool) {
        guard let stations else { preconditionFailure("no station at \(index) before stations load") }
        let active = alertPositions.compactMap { outages[$0] }
        let units = facilityUnits.isEmpty ? [] : facilityUnits[stations.stations[index].id] ?? []
        guard active.isEmpty, units.isEmpty else {
            let station = stations.stations[index]
            return (StepFreeNow(station: station, topology: stations.topologies[station.id], outages: active, facilities: units), false)
        }
        return (stations.quietVerdicts[index], true)
    }
}
