import Glibc
import StopSheetCore
import StopSheetProtocol

/// The methods of protocol.md, each answer from one generation of the store (`Store.current`).
/// Each handler runs on the serving loop and returns at once; `refresh` hands its work to the
/// refreshers.
public struct StopSheetService: Sendable {
    let store: Store
    let refreshers: [CacheName: Refresher]
    let startedAt: Int64
    let connections: @Sendable () -> Int
    /// What `health` reports of push (`subscribe`); nil when the daemon has none.
    let subscriptions: SubscriptionCounters?
    /// The wall clock the answers' ages are taken from (a fixed one in tests).
    let now: @Sendable () -> Instant
    private let spliced = SplicedSheets()

    public init(store: Store, refreshers: [Refresher], connections: @escaping @Sendable () -> Int, subscriptions: SubscriptionCounters? = nil,
                now: @escaping @Sendable () -> Instant = SystemClock.now) {
        self.store = store
        self.refreshers = Dictionary(uniqueKeysWithValues: refreshers.map { ($0.cache, $0) })
        self.startedAt = SystemClock.monotonicMilliseconds()
        self.connections = connections
        self.subscriptions = subscriptions
        self.now = now
    }

    public func register(in dispatcher: inout Dispatcher) {
        dispatcher.register(.stopSheet) { params, _ in reply { () throws(RPCError) in try stopSheet(StopSheetQuery(params)) } }
        dispatcher.registerExact(.stopSheet, param: ParamName.stopId, stamp: { [store] in store.version }) { stopID, _ in reply { () throws(RPCError) in try stopSheet(StopSheetQuery(stopID: stopID)) } }
        dispatcher.register(.station) { params, _ in reply { () throws(RPCError) in try station(params) } }
        dispatcher.register(.stations) { params, _ in reply { () throws(RPCError) in try noParams(params, .stations); return try stations() } }
        dispatcher.register(.alerts) { params, _ in reply { () throws(RPCError) in try alerts(params) } }
        dispatcher.register(.health) { params, _ in reply { () throws(RPCError) in try noParams(params, .health); return health().encoded } }
        dispatcher.register(.version) { params, _ in reply { () throws(RPCError) in try noParams(params, .version); return version.encoded } }
        dispatcher.register(.refresh) { params, context in refresh(params, peer: context.peer) }
        let description = OpenRPC.document(version: StopSheetVersion.current).encoded
        dispatcher.register(.discover) { params, _ in reply { () throws(RPCError) in try noParams(params, .discover); return description } }
    }

    private func reply(_ body: () throws(RPCError) -> [UInt8]) -> RPCReply {
        do { return .result(try body()) } catch { return .error(error) }
    }

    private func noParams(_ params: JSON?, _ method: RPCMethod) throws(RPCError) { _ = try Params(params, of: method) }

    func stopSheet(_ query: StopSheetQuery) throws(RPCError) -> [UInt8] {
        if query.stopType == .bus { return StopSheet.busJSON(stopID: query.stopID).encoded }
        let generation = store.current
        let data = generation.sheetData(now: now())
        if let index = generation.encoded.stationIndex(stopID: query.stopID) {
            return spliced.sheet(at: index, of: generation, data: data)
        }
        // An unknown stop, or stations not loaded yet: the rule is `stopSheet(_:in:)`'s.
        return SheetData.sheet(try stopSheet(query, in: generation.encoded), data: spliced.encodedData(data, of: generation))
    }

    /// The answer's members from a given snapshot, without the train sheet's `data` (it moves
    /// with the clock): subscriptions compare two snapshots' answers with it, and add `data` to
    /// what they send (`answer(_:stopType:data:)`).
    func stopSheet(_ query: StopSheetQuery, in current: EncodedSnapshot) throws(RPCError) -> EncodedMembers {
        if query.stopType == .bus { return EncodedMembers(of: StopSheet.busJSON(stopID: query.stopID)) }
        if let encoded = current.stopSheet(stopID: query.stopID) { return encoded }
        guard current.snapshot.stations == nil else { throw unknownStop(query.stopID) }
        return EncodedMembers(of: StopSheet.beforeStationsLoad(stopID: query.stopID, stationName: query.stationName).json(in: current.zone))
    }

    /// The `stopSheet` result from members of `stopSheet(_:in:)`: a train sheet gets `data`.
    static func answer(_ members: EncodedMembers, stopType: StopType, data: SheetData) -> [UInt8] {
        stopType == .train ? SheetData.sheet(members, data: data.json.encoded) : members.object
    }

    /// Unknown ids are the client's business, so they are logged at debug only: with the id, for
    /// `journalctl STATION_ID=…` when someone is chasing a stop that does not show.
    private func unknownStop(_ stopID: String) -> RPCError {
        Log.debug("unknown stop \(stopID)", [("STOPSHEET_EVENT", "unknown_stop"), ("STATION_ID", stopID)])
        return .unknownStop(stopID)
    }

    func station(_ params: JSON?) throws(RPCError) -> [UInt8] {
        let stopID = try Params(params, of: .station).stopID()!
        let current = store.current.encoded
        guard let stations = current.snapshot.stations else { throw .notLoaded("stations") }
        guard let station = stations.station(for: stopID) else { throw unknownStop(stopID) }
        guard case .object(var detail) = station.json else { return station.json.encoded }
        let sheet = current.snapshot.stopSheet(for: station)
        detail.append("advisories", .array(sheet.accessibilityButton.advisories.map { $0.json(in: current.zone) }))
        detail.append("now", sheet.accessibilityButton.now.json)
        return JSON.object(detail).encoded
    }

    /// Every station, in map-id order, without platforms: what a picker or a shell completion needs.
    func stations() throws(RPCError) -> [UInt8] {
        let snapshot = store.snapshot
        guard let stations = snapshot.stations else { throw .notLoaded("stations") }
        let list = stations.stations.map { station in
            guard case .object(var summary) = station.summaryJSON else { return station.summaryJSON }
            let positions = snapshot.alerts == nil ? [] : snapshot.alertPositions(applyingTo: station)
            summary.append("stepFreeNow", .string(snapshot.stepFreeNow(for: station, alertPositions: positions).stepFree.rawValue))
            return .object(summary)
        }
        let result: JSON = ["count": .int(list.count), "stations": .array(list)]
        return result.encoded
    }

    func alerts(_ params: JSON?) throws(RPCError) -> [UInt8] {
        let stopID = try Params(params, of: .alerts).stopID(required: false)
        let current = store.current.encoded
        let snapshot = current.snapshot
        guard snapshot.alerts != nil else { throw .notLoaded("alerts") }
        var result = JSONObject()
        let alerts: [LiveAlert]
        if let stopID {
            guard let stations = snapshot.stations else { throw .notLoaded("stations") }
            guard let station = stations.station(for: stopID) else { throw unknownStop(stopID) }
            result.append("stationId", .string(station.id))
            alerts = snapshot.alerts(applyingTo: station)
        } else {
            alerts = snapshot.liveAlerts
        }
        result.append("count", .int(alerts.count))
        result.append("alerts", .array(alerts.map { $0.json(in: current.zone) }))
        return JSON.object(result).encoded
    }

    /// `health`'s answer from `generation` (the current one by default).
    public func health(of generation: Generation? = nil) -> JSON {
        let generation = generation ?? store.current
        let now = now()
        let zone = generation.encoded.zone
        func cache(_ name: CacheName) -> JSON { generation.status(name).json(at: now, in: zone) }
        return [
            "status": .string(generation.health.rawValue),
            "alerts": cache(.alerts),
            "stations": cache(.stations),
            "uptimeSeconds": .int(Int((SystemClock.monotonicMilliseconds() - startedAt) / 1000)),
            "connections": .int(connections()),
            "version": .string(StopSheetVersion.current),
            "subscriptions": subscriptions?.json ?? .null,
            "timeZone": .string(zone.identifier),
        ]
    }

    private var version: JSON {
        ["name": "stopsheetd", "version": .string(StopSheetVersion.current), "protocol": .int(StopSheetVersion.protocolVersion)]
    }

    /// Root and the daemon's own user may force a refresh; anyone else could use it to hammer
    /// the upstream, so they are refused.
    func refresh(_ params: JSON?, peer: PeerCredentials) -> RPCReply {
        let what: RefreshTarget
        do {
            what = try Params(params, of: .refresh).oneOf(ParamName.what, default: RefreshTarget.default)
        } catch {
            return .error(error)
        }
        guard peer.uid == 0 || peer.uid == getuid() else {
            Log.info("refresh refused for uid \(peer.uid)", [("STOPSHEET_EVENT", "client_error"), ("PEER_UID", String(peer.uid)), ("PEER_PID", String(peer.pid))])
            return .error(.notPermitted("refresh is for root or the daemon's own user (uid \(getuid()))"))
        }
        let targets = what == .all ? CacheName.allCases : [CacheName(rawValue: what.rawValue)!]
        return .later { [refreshers, store] complete in
            let outcome = RefreshOutcome(expected: targets, zone: store.zone)
            for target in targets {
                refreshers[target]!.refreshNow { status in
                    if let result = outcome.record(target, status) { complete(.result(result)) }
                }
            }
        }
    }
}
