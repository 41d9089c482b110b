import StopSheetCore

/// A lift-status round decoded: the statuses' body (`FacilitiesBody`), the inventory and the
/// station table in force, each the round's own when it brought one that decodes, else the last
/// good load's.
public struct FacilitiesLoad: Sendable {
    public var feed: FacilitiesDecoder.Feed
    /// The body as fetched and the zone its times without an offset were read in (WMATA's,
    /// NYCT's), so that it can be read again in the agency's zone once that is known.
    public var body: [UInt8]
    public var local: TimeZoneRules
    public var inventory: FacilityInventory
    public var inventoryNotices: FeedNotices
    /// The deployer's station table (`--facilities-stations-url`); empty without one.
    public var stationTable = FacilityStationTable.empty
    public var stationTableNotices = FeedNotices()
    /// The feed's notices, the inventory's and the station table's together.
    public var notices: FeedNotices {
        var notices = feed.notices
        notices.append(inventoryNotices)
        notices.append(stationTableNotices)
        return notices
    }
    /// Why this round's station table was not taken, the last good one kept (as `inventoryKept`).
    var stationTableKept: FetchFailure?
    /// Why this round's inventory was not taken, the last good one kept instead: its URL failed,
    /// or its body did not decode. The refresher warns of it.
    var inventoryKept: FetchFailure?

    public init(feed: FacilitiesDecoder.Feed, inventory: FacilityInventory = .empty, inventoryNotices: FeedNotices = FeedNotices(),
                body: [UInt8] = [], local: TimeZoneRules = .notKnown) {
        self.feed = feed
        self.body = body
        self.local = local
        self.inventory = inventory
        self.inventoryNotices = inventoryNotices
    }

    /// A round's bytes decoded. Throws when the statuses do not decode, or when there is no
    /// inventory to join them to (the first one did not come or did not decode).
    init(_ input: CacheLoader.Input) throws {
        self.init(feed: try FacilitiesBody.decode(input.body, local: input.local), body: input.body, local: input.local)
        var kept: FetchFailure?
        if let (table, notices) = Self.read(input.stationTable, named: "the station table", previous: input.previous.map { ($0.stationTable, $0.stationTableNotices) },
                                            kept: &kept, decode: { try FacilityStationTableDecoder.decode($0) }) {
            (stationTable, stationTableNotices) = (table, notices)
        }
        stationTableKept = kept
        kept = nil
        guard input.companion != nil else { return }
        let inventory = Self.read(input.companion, named: "the inventory", previous: input.previous.map { ($0.inventory, $0.inventoryNotices) },
                                  kept: &kept, decode: { try FacilityInventoryDecoder.decode($0) })
        inventoryKept = kept
        guard let (inventory, notices) = inventory else {
            throw kept ?? FetchFailure("no inventory loaded to join the statuses to")
        }
        (self.inventory, inventoryNotices) = (inventory, notices)
    }

    /// A companion's value in force: the round's when it brought one that decodes, else the last
    /// good load's (`previous`), with why the round's was not taken in `kept`; nil when there was
    /// never one (or no companion is configured).
    private static func read<Value>(_ fetch: CompanionFetch?, named name: String, previous: (Value, FeedNotices)?, kept: inout FetchFailure?,
                                    decode: ([UInt8]) throws -> (Value, FeedNotices)) -> (Value, FeedNotices)? {
        switch fetch {
        case nil:
            return nil
        case .body(let bytes)?:
            do { return try decode(bytes) } catch { kept = FetchFailure("\(name) did not decode: \(error)") }
        case .unchanged?:
            break
        case .failed(let failure)?:
            kept = failure
        }
        return previous
    }
}
