import Posix
import StopSheetCore
import StopSheetProtocol

/// A typed client for stopsheetd's JSON-RPC over its Unix socket (protocol.md): one connection,
/// one request at a time, each answer awaited for at most `timeout`. For `stopsheetctl`, scripts
/// and other packages' integration tests. Owned by one thread at a time.
///
///     let client = try StopSheetClient(socketPath: "/run/stopsheetd/stopsheetd.sock")
///     let sheet = try client.stopSheet(stopId: "40380")
///     print(sheet.stationName ?? "?", sheet.accessibilityButton?.tone.rawValue ?? "?")
public final class StopSheetClient {
    public let connection: LineConnection
    public let timeout: Duration
    private var nextID = 1
    /// Notifications (subscriptions) that arrived while an answer was awaited, oldest first.
    var heldNotifications: [JSON] = []

    public init(socketPath: String, timeout: Duration = .seconds(15)) throws(ClientError) {
        connection = try LineConnection(socketPath: socketPath, sendTimeout: timeout)
        self.timeout = timeout
    }

    /// Any method: its `result`, or `.rpc` with the daemon's error.
    public func call(method: String, params: JSON? = nil) throws(ClientError) -> JSON {
        let answer = try answer(method: method, params: params)
        if let error = answer[RPCEnvelope.error] { throw .rpc(RPCError(json: error)) }
        return answer[RPCEnvelope.result] ?? .null
    }

    /// Any method: the whole answer object, error or not.
    public func answer(method: String, params: JSON? = nil) throws(ClientError) -> JSON {
        var request = JSONObject([(RPCEnvelope.jsonrpc, .string(RPCEnvelope.version)), (RPCEnvelope.id, .int(nextID)), (RPCEnvelope.method, .string(method))])
        nextID += 1
        if let params { request.append(RPCEnvelope.params, params) }
        try connection.send(JSON.object(request).encoded + [UInt8(ascii: "\n")])
        while true {
            let message = try readMessage(timeout: timeout)
            guard Self.isNotification(message) else { return message }
            heldNotifications.append(message)
        }
    }

    /// The next line, parsed.
    func readMessage(timeout: Duration) throws(ClientError) -> JSON {
        let line = try connection.readLine(timeout: timeout)
        do { return try JSONParser.parse(line) } catch { throw .unreadableAnswer(error) }
    }

    /// A line with a `method` and no `id`: pushed by the daemon, not an answer.
    static func isNotification(_ message: JSON) -> Bool { message[RPCEnvelope.method] != nil && message[RPCEnvelope.id] == nil }

    /// A method's result decoded into its type (`Answer`), beside the JSON as received. The method
    /// type names both (`Methods.Station`), so a call cannot ask one method for another's answer.
    public func call<Method: RPCMethodType>(_ method: Method.Type, params: JSON? = nil) throws(ClientError) -> Reply<Method.Result>
    where Method.Result: Decodable & Sendable {
        try Reply(try call(method: Method.name, params: params), of: Method.name)
    }

    /// The same with its params as a value of the method's `Params` type, encoded as the daemon
    /// reads them (`ParamsEncoder`): params of another method do not compile, and each value is
    /// of its param's type, within its limit (`StopID("…")` is nil beyond it).
    public func call<Method: RPCMethodType>(_ method: Method.Type, _ params: Method.Params) throws(ClientError) -> Reply<Method.Result>
    where Method.Result: Decodable & Sendable {
        try call(method, params: ParamsEncoder.json(params))
    }

    /// The same with params named by the method's params type (`.stopId` of
    /// `Methods.Station.Params.CodingKeys`), so that a param of another method does not compile;
    /// nil values are left out. The values are sent as given: the daemon checks them.
    public func call<Method: RPCMethodType>(_ method: Method.Type, _ params: KeyValuePairs<Method.Params.CodingKeys, JSON?>)
    throws(ClientError) -> Reply<Method.Result> where Method.Result: Decodable & Sendable {
        try call(method, params: .object(JSONObject(params.compactMap { key, value in value.map { (key.stringValue, $0) } })))
    }

    /// `stopType` is sent only when given: the daemon's default is a train stop.
    public func stopSheet(stopId: String, stopType: StopType? = nil, stationName: String? = nil) throws(ClientError) -> Reply<Answer.Sheet> {
        try call(Methods.StopSheet.self, [.stopId: .string(stopId), .stopType: stopType.map { .string($0.rawValue) }, .stationName: stationName.map(JSON.string)])
    }

    /// A station's detail: its summary, platforms, entrances and advisories.
    public func station(stopId: String) throws(ClientError) -> Reply<Answer.Station> {
        try call(Methods.Station.self, [.stopId: .string(stopId)])
    }

    /// A station's map (its locations, pathways, what is out, each platform's ways), or null and why.
    public func stationMap(stopId: String) throws(ClientError) -> Reply<Answer.StationMap> {
        try call(Methods.StationMap.self, [.stopId: .string(stopId)])
    }

    /// Every station, by name, without platforms.
    public func stations() throws(ClientError) -> Reply<Answer.Stations> {
        try call(Methods.Stations.self, NoParams())
    }

    /// Live train alerts: all of them, or those applying to `stopId` in dialog order.
    public func alerts(stopId: String? = nil) throws(ClientError) -> Reply<Answer.Alerts> {
        try call(Methods.Alerts.self, params: stopId.map { [Methods.Alerts.Params.CodingKeys.stopId.stringValue: .string($0)] })
    }

    /// The lift-status units (`--facilities-url`) and their statuses: all, or a stop's station's.
    public func facilities(stopId: String? = nil) throws(ClientError) -> Reply<Answer.Facilities> {
        try call(Methods.Facilities.self, params: stopId.map { [Methods.Facilities.Params.CodingKeys.stopId.stringValue: .string($0)] })
    }

    public func health() throws(ClientError) -> Reply<Answer.Health> {
        try call(Methods.Health.self, NoParams())
    }

    /// Refreshes now and answers when done with the `health` entries of what was refreshed.
    /// Only root and the daemon's user may (`-32002` otherwise).
    public func refresh(_ what: RefreshTarget = .default) throws(ClientError) -> Reply<Answer.Refreshed> {
        try call(Methods.Refresh.self, Methods.Refresh.Params(what: what))
    }

    public func version() throws(ClientError) -> Reply<Answer.Version> {
        try call(Methods.Version.self, NoParams())
    }

    /// What the daemon has counted since it started: requests, errors, connections, refreshes.
    public func stats() throws(ClientError) -> Reply<Answer.Stats> {
        try call(Methods.Stats.self, NoParams())
    }
}
