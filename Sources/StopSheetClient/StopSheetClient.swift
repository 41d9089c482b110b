import Posix
import StopSheetCore
import StopSheetProtocol

/// A typed client for stopsheetd's JSON-RPC over its Unix socket (protocol.md): one connection,
/// one request at a time, each answer awaited for at most `timeout`. For `stopsheetctl`, scripts
/// and other packages' integration tests. Owned by one thread at a time.
///
///     let client = try StopSheetClient(socketPath: "/run/stopsheetd/stopsheetd.sock")
///     let sheet = try client.stopSheet(stopId: "40380")
///     print(sheet.stationName ?? "?", sheet.accessibilityButton.value?.tone.rawValue ?? "?")
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

    // MARK: Raw calls
    // A method and params as JSON, sent as given: for what a user types (`stopsheetctl call METHOD
    // JSON`) and for tests that send what the daemon must refuse. Everything else calls by the
    // method's type (`call(_:_:)`), whose params and result the compiler checks.

    /// Raw: any method by name, params as given; its `result`, or `.rpc` with the daemon's error.
    public func call(method: String, params: JSON? = nil) throws(ClientError) -> JSON {
        let answer = try answer(method: method, params: params)
        if let error = answer[RPCEnvelope.error] { throw .rpc(RPCError(json: error)) }
        return answer[RPCEnvelope.result] ?? .null
    }

    /// Raw: any method by name, params as given; the whole answer object, error or not.
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

    // MARK: Typed calls

    /// A method called by its type (`Methods.Station`) with a value of its `Params` type, encoded as
    /// the daemon reads them (`ParamsEncoder`); its result decoded into its type (`Answer`), beside
    /// the JSON as received. Params of another method, a param of the wrong type, or a result read
    /// as another method's do not compile; each value is within its limit (`StopID("…")` is nil
    /// beyond it).
    public func call<Method: RPCMethodType>(_ method: Method.Type, _ params: Method.Params) throws(ClientError) -> Reply<Method.Result>
    where Method.Result: Decodable & Sendable {
        try Reply(try call(method: Method.name, params: ParamsEncoder.json(params)), of: Method.name)
    }

    /// `json` as a param of type `Value` named `key`, for the calls below that take plain strings: a
    /// value the daemon would refuse is refused here with the daemon's own -32602 (`ParamValue.param`,
    /// the rule it reads params by), and nothing is sent.
    static func param<Value: ParamValue>(_ json: JSON, _ key: some CodingKey) throws(ClientError) -> Value {
        do throws(RPCError) { return try Value.param(json, name: key.stringValue) } catch { throw .rpc(error) }
    }

    /// `stopType` is sent only when given: the daemon's default is a train stop.
    public func stopSheet(stopId: String, stopType: StopType? = nil, stationName: String? = nil) throws(ClientError) -> Reply<Answer.Sheet> {
        typealias Params = Methods.StopSheet.Params
        let name: ParamText? = if let stationName { try Self.param(.string(stationName), Params.CodingKeys.stationName) } else { nil }
        return try call(Methods.StopSheet.self, Params(stopId: try Self.param(.string(stopId), Params.CodingKeys.stopId), stopType: stopType, stationName: name))
    }

    /// A station's detail: its summary, platforms, entrances and advisories.
    public func station(stopId: String) throws(ClientError) -> Reply<Answer.Station> {
        try call(Methods.Station.self, Methods.Station.Params(stopId: try Self.param(.string(stopId), Methods.Station.Params.CodingKeys.stopId)))
    }

    /// A station's map (its locations, pathways, what is out, each platform's ways), or null and why.
    public func stationMap(stopId: String) throws(ClientError) -> Reply<Answer.StationMap> {
        try call(Methods.StationMap.self, Methods.StationMap.Params(stopId: try Self.param(.string(stopId), Methods.StationMap.Params.CodingKeys.stopId)))
    }

    /// Every station, by name, without platforms.
    public func stations() throws(ClientError) -> Reply<Answer.Stations> {
        try call(Methods.Stations.self, NoParams())
    }

    /// Live train alerts: all of them, or those applying to `stopId` in dialog order.
    public func alerts(stopId: String? = nil) throws(ClientError) -> Reply<Answer.Alerts> {
        let id: StopID? = if let stopId { try Self.param(.string(stopId), Methods.Alerts.Params.CodingKeys.stopId) } else { nil }
        return try call(Methods.Alerts.self, Methods.Alerts.Params(stopId: id))
    }

    /// The lift-status units (`--facilities-url`) and their statuses: all, or a stop's station's.
    public func facilities(stopId: String? = nil) throws(ClientError) -> Reply<Answer.Facilities> {
        let id: StopID? = if let stopId { try Self.param(.string(stopId), Methods.Facilities.Params.CodingKeys.stopId) } else { nil }
        return try call(Methods.Facilities.self, Methods.Facilities.Params(stopId: id))
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
