/// The lift-status data a snapshot joins (`--facilities-url`, `--facilities-inventory-url`,
/// `--facilities-stations-url`, `--facilities-radius`): the units of the last good load, the
/// inventory, the station table, the position join's radius, and how fresh they are. The staleness rule is
/// here, with `now` passed in: data older than its stale-after (its last good load, or the time
/// the feed says it was made, `DataFreshness`) counts every unit as `unknown`.
public struct FacilityData: Sendable, Equatable {
    public var units: [FacilityUnit]
    public var inventory: FacilityInventory
    /// The deployer's station table (`FacilityJoin`'s rule `table`).
    public var stationTable: FacilityStationTable
    /// How far the position join looks, in metres.
    public var radiusMeters: Int
    /// The last good load (a 304 included: the same data, still current).
    public var lastGoodLoad: Instant
    /// When the feed says it was made, if it says.
    public var producedAt: Instant?
    public var staleAfterSeconds: Int64

    public init(units: [FacilityUnit], inventory: FacilityInventory = .empty, stationTable: FacilityStationTable = .empty,
                radiusMeters: Int = FacilityJoin.defaultRadiusMeters, lastGoodLoad: Instant, producedAt: Instant? = nil, staleAfterSeconds: Int64) {
        self.units = units
        self.inventory = inventory
        self.stationTable = stationTable
        self.radiusMeters = radiusMeters
        self.lastGoodLoad = lastGoodLoad
        self.producedAt = producedAt
        self.staleAfterSeconds = staleAfterSeconds
    }

    /// Whether every unit counts as `unknown` at `now`: the same rule as the sheet's `data.facilities.stale`.
    public func isStale(at now: Instant) -> Bool {
        DataFreshness(lastGoodLoad: lastGoodLoad, producedAt: producedAt, now: now, staleAfterSeconds: staleAfterSeconds).stale
    }

    /// The first moment after `now` at which the verdicts change with the clock alone: the data
    /// turns stale, or an upcoming outage starts or ends. Nil when none is ahead.
    public func nextChange(after now: Instant) -> Instant? {
        var moments: [Instant] = []
        if !isStale(at: now) {
            // Stale once the age in whole seconds is over the limit.
            moments.append(lastGoodLoad.adding(seconds: staleAfterSeconds + 1))
            if let producedAt { moments.append(producedAt.adding(seconds: staleAfterSeconds + 1)) }
        }
        for unit in units where unit.isUpcoming {
            moments.append(contentsOf: [unit.since, unit.expectedBack].compactMap { $0 })
        }
        return moments.filter { $0 > now }.min()
    }

    /// The units of a feed that says no `since` (TfL's), each out since the daemon first saw
    /// it out: the `since` of the same unit in the `previous` load when it was out there too,
    /// else `seenAt` (this load). A unit that came back and went out again starts afresh.
    public static func sinceFirstSeen(_ units: [FacilityUnit], previous: [FacilityUnit], seenAt: Instant) -> [FacilityUnit] {
        var before: [String: Instant] = [:]
        for unit in previous where unit.status == .notAvailable {
            if let since = unit.since, before[unit.unitID] == nil { before[unit.unitID] = since }
        }
        return units.map { unit in
            var unit = unit
            if unit.since == nil, unit.status == .notAvailable { unit.since = before[unit.unitID] ?? seenAt }
            return unit
        }
    }

    /// The units joined to the stations, their statuses as they count at `now` (`FacilityJoin`).
    public func joined(to stations: StationDirectory, at now: Instant) -> FacilityJoin.Joined {
        FacilityJoin.join(units, inventory: inventory, table: stationTable, radiusMeters: radiusMeters, stations: stations, at: now,
                          stale: isStale(at: now))
    }
}
