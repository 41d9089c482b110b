import Posix
import StopSheetCore
import StopSheetProtocol

/// A typed client for stopsheetd's JSON-RPC over its Unix socket (protocol.md): one connection,
/// one request at a time, each answer awaited for at most `timeout`. For `stopsheetctl`, scripts
/// and other packages' integration tests. Owned by one thread at a time.
///
///     let client = try StopSheetClient(socketPath: "/run/stopsheetd/stopsheetd.sock")
///     let sheet = try client.stopSheet(stopId: "40380")
///     print(sheet.stationName ?? "?", sheet.accessibilityTone ?? "?")
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
        if let error = answer["error"] { throw .rpc(RPCError(json: error)) }
        return answer["result"] ?? .null
    }

    public func call(_ method: RPCMethod, params: JSON? = nil) throws(ClientError) -> JSON { try call(method: method.name, params: params) }

    /// Any method: the whole answer object, error or not.
    public func answer(method: String, params: JSON? = nil) throws(ClientError) -> JSON {
        var request = JSONObject([("jsonrpc", "2.0"), ("id", .int(nextID)), ("method", .string(method))])
        nextID += 1
        if let params { request.append("params", params) }
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
    static func isNotification(_ message: JSON) -> Bool { message["method"] != nil && message["id"] == nil }

    /// `stopType` is sent only when given: the daemon's default is a train stop.
    public func stopSheet(stopId: String, stopType: StopType? = nil, stationName: String? = nil) throws(ClientError) -> StopSheetReply {
        var params = JSONObject([(ParamName.stopId, .string(stopId))])
        if let stopType { params.append(ParamName.stopType, .string(stopType.rawValue)) }
        if let stationName { params.append(ParamName.stationName, .string(stationName)) }
        return StopSheetReply(json: try call(.stopSheet, params: .object(params)))
    }

    /// Station detail: `{stationId, stationName, routes, stepFree, partial, platforms}`.
    public func station(stopId: String) throws(ClientError) -> JSON {
        try call(.station, params: [ParamName.stopId: .string(stopId)])
    }

    /// Every station: `{count, stations: [{stationId, stationName, routes, stepFree, partial}]}`.
    public func stations() throws(ClientError) -> JSON {
        try call(.stations)
    }

    /// Live train alerts: all of them, or those applying to `stopId` in dialog order.
    public func alerts(stopId: String? = nil) throws(ClientError) -> JSON {
        try call(.alerts, params: stopId.map { [ParamName.stopId: .string($0)] })
    }

    public func health() throws(ClientError) -> HealthReply {
        HealthReply(json: try call(.health))
    }

    /// Refreshes now and answers when done with the `health` entries of what was refreshed.
    /// Only root and the daemon's user may (`-32002` otherwise).
    public func refresh(_ what: RefreshTarget = .default) throws(ClientError) -> JSON {
        try call(.refresh, params: [ParamName.what: .string(what.rawValue)])
    }

    public func version() throws(ClientError) -> VersionReply {
        VersionReply(json: try call(.version))
    }

    /// What the daemon has counted since it started: requests, errors, connections, refreshes.
    public func stats() throws(ClientError) -> StatsReply {
        StatsReply(json: try call(.stats))
    }
}
