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

    public func call(_ method: RPCMethod, params: JSON? = nil) throws(ClientError) -> JSON { try call(method: method.name, params: params) }

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
    public func call<Method: RPCMethodType>(_ method: Method.Type, params: JSON? = nil) throws(ClientError) -> Reply<Method.Result> {
        try Reply(try call(Method.method, params: params), of: Method.method.name)
    }

    /// `stopType` is sent only when given: the daemon's default is a train stop.
    public func stopSheet(stopId: String, stopType: StopType? = nil, stationName: String? = nil) throws(ClientError) -> Reply<Answer.Sheet> {
        var params = JSONObject([(ParamName.stopId, .string(stopId))])
        if let stopType { params.append(ParamName.stopType, .string(stopType.rawValue)) }
        if let stationName { params.append(ParamName.stationName, .string(stationName)) }
        return try call(Methods.StopSheet.self, params: .object(params))
    }

    /// A station's detail: its summary, platforms, entrances and advisories.
    public func station(stopId: String) throws(ClientError) -> Reply<Answer.Station> {
        try call(Methods.Station.self, params: [ParamName.stopId: .string(stopId)])
    }

    /// Every station, by name, without platforms.
    public func stations() throws(ClientError) -> Reply<Answer.Stations> {
        try call(Methods.Stations.self)
    }

    /// Live train alerts: all of them, or those applying to `stopId` in dialog order.
    public func alerts(stopId: String? = nil) throws(ClientError) -> Reply<Answer.Alerts> {
        try call(Methods.Alerts.self, params: stopId.map { [ParamName.stopId: .string($0)] })
    }

    /// The lift-status units (`--facilities-url`) and their statuses: all, or a stop's station's.
    public func facilities(stopId: String? = nil) throws(ClientError) -> Reply<Answer.Facilities> {
        try call(Methods.Facilities.self, params: stopId.map { [ParamName.stopId: .string($0)] })
    }

    public func health() throws(ClientError) -> Reply<Answer.Health> {
        try call(Methods.Health.self)
    }

    /// Refreshes now and answers when done with the `health` entries of what was refreshed.
    /// Only root and the daemon's user may (`-32002` otherwise).
    public func refresh(_ what: RefreshTarget = .default) throws(ClientError) -> Reply<Answer.Refreshed> {
        try call(Methods.Refresh.self, params: [ParamName.what: .string(what.rawValue)])
    }

    public func version() throws(ClientError) -> Reply<Answer.Version> {
        try call(Methods.Version.self)
    }

    /// What the daemon has counted since it started: requests, errors, connections, refreshes.
    public func stats() throws(ClientError) -> Reply<Answer.Stats> {
        try call(Methods.Stats.self)
    }
}
