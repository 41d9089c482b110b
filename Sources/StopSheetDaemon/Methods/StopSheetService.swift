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
    /// The wall clock the answers' ages are taken from (a manual one in tests).
    let clock: DaemonClock
    private let spliced = SplicedSheets()

    public init(store: Store, refreshers: [Refresher], connections: @escaping @Sendable () -> Int, subscriptions: SubscriptionCounters? = nil,
                clock: DaemonClock) {
        self.store = store
        self.refreshers = Dictionary(uniqueKeysWithValues: refreshers.map { ($0.cache, $0) })
        self.startedAt = SystemClock.monotonicMilliseconds()
        self.connections = connections
        self.subscriptions = subscriptions
        self.clock = clock
    }

    public func register(in dispatcher: inout Dispatcher) {
        dispatcher.register(Methods.StopSheet.self) { params, _ in .of { () throws(RPCError) in try stopSheet(StopSheetQuery(params)) } }
        // The shortcut answers from the same `stopSheet` as the general handler.
        dispatcher.registerExact(Methods.StopSheet.self, param: .stopId, stamp: { [store] in store.version }) { stopID, _ in
            .of { () throws(RPCError) in try stopSheet(StopSheetQuery(stopID: stopID)) }
        }
        dispatcher.register(Methods.Station.self) { params, _ in .of { () throws(RPCError) in try station(params.stopId.text) } }
        dispatcher.register(Methods.StationMap.self) { params, _ in .of { () throws(RPCError) in try stationMap(params.stopId.text) } }
        dispatcher.register(Methods.Stations.self) { _, _ in .of { () throws(RPCError) in try stations() } }
        dispatcher.register(Methods.Alerts.self) { params, _ in .of { () throws(RPCError) in try alerts(params.stopId?.text) } }
        dispatcher.register(Methods.Facilities.self) { params, _ in .of { () throws(RPCError) in try facilities(params.stopId?.text) } }
        dispatcher.register(Methods.Health.self) { _, _ in .result(encodedHealth()) }
        dispatcher.register(Methods.Version.self) { _, _ in .result(Self.encodedVersion) }
        dispatcher.register(Methods.Refresh.self) { params, context in refresh(params.what ?? .default, peer: context.peer) }
        let description = PreEncoded(document: OpenRPC.document)
        dispatcher.register(Methods.Discover.self) { _, _ in .result(description) }
    }

    func stopSheet(_ query: StopSheetQuery) throws(RPCError) -> PreEncoded<Answer.Sheet> {
        let generation = store.current
        let data = generation.sheetData(now: clock.now())
        if query.stopType == .train, let index = generation.encoded.stationIndex(stopID: query.stopID) {
            return spliced.sheet(at: index, of: generation.encoded, data: data)
        }
        // A bus stop, an unknown stop, or stations not loaded yet: the rule is `stopSheet(_:in:)`'s.
        return PreEncoded(try stopSheet(query, in: generation.encoded), data: spliced.encodedData(data, of: generation.encoded))
    }

    /// The answer without the train sheet's `data` (it moves with the clock) from a given
    /// snapshot: subscriptions compare two snapshots' answers with it, and complete what they
    /// send with `data` (`PreEncoded(_:data:)`).
    func stopSheet(_ query: StopSheetQuery, in current: EncodedSnapshot) throws(RPCError) -> EncodedSheet {
        if query.stopType == .bus { return EncodedSheet(busStopID: query.stopID) }
        if let encoded = current.stopSheet(stopID: query.stopID) { return encoded }
        guard current.snapshot.stations == nil else { throw unknownStop(query.stopID) }
        return StopSheet.encodedBeforeStationsLoad(stopID: query.stopID, stationName: query.stationName)
    }

    /// `-32005`: the data has not loaded yet, or, for a cache without a source, never will.
    func notLoaded(_ cache: CacheName) -> RPCError {
        .notLoaded(store.status(cache).configured ? cache.rawValue : "\(cache.rawValue): not configured (the daemon has no --\(cache.rawValue)-url)")
    }

    /// Unknown ids are the client's business, so they are logged at debug only: with the id, for
    /// `journalctl STATION_ID=…` when someone is chasing a stop that does not show.
    func unknownStop(_ stopID: String) -> RPCError {
        Log.debug("unknown stop \(stopID)", [JournalEvent.unknownStop.field, ("STATION_ID", stopID)])
        return .unknownStop(stopID)
    }

    func station(_ stopID: String) throws(RPCError) -> PreEncoded<Answer.Station> {
        let current = store.current.encoded
        guard let stations = current.snapshot.stations else { throw notLoaded(.stations) }
        guard let station = stations.station(for: stopID) else { throw unknownStop(stopID) }
        let button = current.snapshot.stopSheet(for: station).accessibilityButton
        return PreEncoded(station.detail(advisories: button.advisories, now: button.now, in: current.zone))
    }

    /// Every station by name (`StationsByName`), without platforms: what a picker or a shell completion needs.
    func stations() throws(RPCError) -> PreEncoded<Answer.Stations> {
        let encoded = store.current.encoded
        let snapshot = encoded.snapshot
        guard let stations = snapshot.stations else { throw notLoaded(.stations) }
        let summaries = encoded.stationsByName.map { index in
            let station = stations.stations[index]
            let positions = snapshot.alerts == nil ? [] : snapshot.alertPositions(applyingTo: station)
            return station.summary(stepFreeNow: snapshot.stepFreeNow(for: station, alertPositions: positions).stepFree)
        }
        return PreEncoded(Answer.Stations(count: stations.count, stations: summaries))
    }

    /// All alerts, or those applying to `stopID`'s station.
    func alerts(_ stopID: String?) throws(RPCError) -> PreEncoded<Answer.Alerts> {
        let current = store.current.encoded
        let snapshot = current.snapshot
        guard snapshot.alerts != nil else { throw notLoaded(.alerts) }
        let alerts: [LiveAlert]
        var station: Station?
        if let stopID {
            guard let stations = snapshot.stations else { throw notLoaded(.stations) }
            station = stations.station(for: stopID)
            guard let station else { throw unknownStop(stopID) }
            alerts = snapshot.alerts(applyingTo: station)
        } else {
            alerts = snapshot.liveAlerts
        }
        return PreEncoded(Answer.Alerts(stationId: station?.id, count: alerts.count, alerts: alerts.map { $0.answer(in: current.zone) }))
    }

    /// Root and the daemon's own user may force a refresh; anyone else could use it to hammer
    /// the upstream, so they are refused.
    func refresh(_ what: RefreshTarget, peer: PeerCredentials) -> MethodReply<Answer.Refreshed> {
        guard peer.uid == 0 || peer.uid == DaemonUser.uid else {
            Log.info("refresh refused for uid \(peer.uid)", [JournalEvent.clientError.field, ("PEER_UID", String(peer.uid)), ("PEER_PID", String(peer.pid))])
            return .error(.notPermitted("refresh is for root or the daemon's own user (uid \(DaemonUser.uid))"))
        }
        let targets = what == .all ? CacheName.allCases : [CacheName(rawValue: what.rawValue)!]
        return .later { [refreshers, store] complete in
            let outcome = RefreshOutcome(expected: targets, zone: store.zone, clock: clock)
            for target in targets {
                // A cache without a source has nothing to fetch: its entry says `configured: false`.
                guard let refresher = refreshers[target] else {
                    if let result = outcome.record(target, store.status(target)) { complete(.result(result)) }
                    continue
                }
                refresher.refreshNow { status in
                    if let result = outcome.record(target, status) { complete(.result(result)) }
                }
            }
        }
    }
}
