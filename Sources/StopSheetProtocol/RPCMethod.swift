import StopSheetCore

/// One method of the protocol: its name, its params by name with their types, its result, and
/// the error codes it adds to `ErrorCode.anyRequest`. The daemon registers its handlers and reads
/// params by these, the client calls by them, and `rpc.discover` describes them; protocol.md
/// says in words what each one does, and a test holds the two together.
public struct RPCMethod: Sendable, Equatable {
    public let name: String
    public let summary: String
    public let params: [RPCParam]
    public let result: RPCResult
    public let errors: [ErrorCode]

    /// The names `params` may carry: any other is -32602.
    public var paramNames: Set<String> { Set(params.map(\.name)) }

    public static let stopSheet = RPCMethod(
        "stopSheet", "The stop sheet of a stop: alert glyph, dialog, accessibility button and data freshness.",
        params: [.init(ParamName.stopId, .stopID, required: true), .init(ParamName.stopType, .oneOf(StopType.allCases.map(\.rawValue))),
                 .init(ParamName.stationName, .string(maxBytes: RPCParam.maxStringBytes))],
        result: .init("stopSheet", Methods.StopSheet.Result.self), errors: [.unknownStop])
    public static let station = RPCMethod(
        "station", "A station's detail: routes, platforms, step-free status and accessibility advisories.",
        params: [.init(ParamName.stopId, .stopID, required: true)], result: .init("station", Methods.Station.Result.self), errors: [.unknownStop, .notLoaded])
    public static let stations = RPCMethod(
        "stations", "Every station, by name, without platforms.", params: [], result: .init("stations", Methods.Stations.Result.self), errors: [.notLoaded])
    public static let alerts = RPCMethod(
        "alerts", "Live train alerts: all, or those applying to a stop in dialog order.",
        params: [.init(ParamName.stopId, .stopID)], result: .init("alerts", Methods.Alerts.Result.self), errors: [.unknownStop, .notLoaded])
    public static let facilities = RPCMethod(
        "facilities", "Lift-status units (--facilities-url) and their statuses: all, or a stop's station's.",
        params: [.init(ParamName.stopId, .stopID)], result: .init("facilities", Methods.Facilities.Result.self), errors: [.unknownStop, .notLoaded])
    public static let health = RPCMethod(
        "health", "Whether the daemon can answer, and each cache's state.", params: [], result: .init(ParamName.health, Methods.Health.Result.self), errors: [])
    public static let refresh = RPCMethod(
        "refresh", "Refresh now; answered when done, with the health entries of what was refreshed. Root and the daemon's user only.",
        params: [.init(ParamName.what, .oneOf(RefreshTarget.allCases.map(\.rawValue)))], result: .init("refreshed", Methods.Refresh.Result.self), errors: [.notPermitted])
    public static let stats = RPCMethod(
        "stats", "What the daemon has counted since it started.", params: [], result: .init("stats", Methods.Stats.Result.self), errors: [])
    public static let version = RPCMethod(
        "version", "The daemon's name, version and protocol version.", params: [], result: .init("version", Methods.Version.Result.self), errors: [])
    public static let subscribe = RPCMethod(
        "subscribe", "Follow stop sheets and health on this connection: stopSheetChanged and healthChanged notifications.",
        params: [.init(ParamName.stopIds, .stopIDs), .init(ParamName.stopType, .oneOf(StopType.allCases.map(\.rawValue))), .init(ParamName.health, .bool)],
        result: .init(ParamName.subscription, Methods.Subscribe.Result.self), errors: [.unknownStop, .subscriptionLimit])
    public static let unsubscribe = RPCMethod(
        "unsubscribe", "End one of this connection's subscriptions.",
        params: [.init(ParamName.subscription, .string(maxBytes: RPCParam.maxStringBytes), required: true)], result: .init("ended", .bool),
        errors: [.unknownSubscription])
    /// The OpenRPC service description of every method above (`OpenRPC.document`).
    public static let discover = RPCMethod(
        "rpc.discover", "This service's OpenRPC description.", params: [], result: .init("OpenRPC Schema", .openRPC), errors: [])

    /// Every method the daemon serves, `rpc.discover` last (OpenRPC lists it in no document).
    public static let all: [RPCMethod] = [stopSheet, station, stations, alerts, facilities, health, refresh, stats, version, subscribe, unsubscribe, discover]

    init(_ name: String, _ summary: String, params: [RPCParam], result: RPCResult, errors: [ErrorCode]) {
        self.name = name
        self.summary = summary
        self.params = params
        self.result = result
        self.errors = errors
    }
}

/// A method as a type, as sourcekit-lsp's requests and varlink's methods are: its description
/// (`RPCMethod`) and the type of its result, paired here once (`RPCMethod`'s result and
/// `rpc.discover` read the pair). The client's `call` takes one and returns its `Result`, so a
/// method called for another's answer does not compile.
public protocol RPCMethodType {
    associatedtype Result: AnswerObject
    static var method: RPCMethod { get }
}

/// The methods whose result is an object (`unsubscribe` answers a bool, `rpc.discover` OpenRPC's
/// document), as types.
public enum Methods {
    public enum StopSheet: RPCMethodType {
        public typealias Result = Answer.Sheet
        public static var method: RPCMethod { .stopSheet }
    }
    public enum Station: RPCMethodType {
        public typealias Result = Answer.Station
        public static var method: RPCMethod { .station }
    }
    public enum Stations: RPCMethodType {
        public typealias Result = Answer.Stations
        public static var method: RPCMethod { .stations }
    }
    public enum Alerts: RPCMethodType {
        public typealias Result = Answer.Alerts
        public static var method: RPCMethod { .alerts }
    }
    public enum Facilities: RPCMethodType {
        public typealias Result = Answer.Facilities
        public static var method: RPCMethod { .facilities }
    }
    public enum Health: RPCMethodType {
        public typealias Result = Answer.Health
        public static var method: RPCMethod { .health }
    }
    public enum Refresh: RPCMethodType {
        public typealias Result = Answer.Refreshed
        public static var method: RPCMethod { .refresh }
    }
    public enum Stats: RPCMethodType {
        public typealias Result = Answer.Stats
        public static var method: RPCMethod { .stats }
    }
    public enum Version: RPCMethodType {
        public typealias Result = Answer.Version
        public static var method: RPCMethod { .version }
    }
    public enum Subscribe: RPCMethodType {
        public typealias Result = Answer.Subscribed
        public static var method: RPCMethod { .subscribe }
    }
}

/// One param of a method, by name.
public struct RPCParam: Sendable, Equatable {
    public let name: String
    public let type: RPCType
    public let required: Bool

    /// The longest free-text param (`stationName`, a subscription id).
    public static let maxStringBytes = 200

    init(_ name: String, _ type: RPCType, required: Bool = false) {
        self.name = name
        self.type = type
        self.required = required
    }
}

/// A method's result: a name for generated code, and its type (`Answer`), which the daemon
/// writes, the client decodes and `rpc.discover` describes.
public struct RPCResult: Sendable, Equatable {
    public let name: String
    public let type: AnswerType

    init(_ name: String, _ type: AnswerType) {
        self.name = name
        self.type = type
    }

    init(_ name: String, _ object: any AnswerObject.Type) { self.init(name, .object(object)) }
}

/// What a result or a notification's params is.
public enum AnswerType: Sendable, Equatable {
    case object(any AnswerObject.Type)
    case bool
    /// `rpc.discover`'s: an OpenRPC document, which OpenRPC's own meta-schema describes.
    case openRPC

    public static func == (lhs: AnswerType, rhs: AnswerType) -> Bool {
        switch (lhs, rhs) {
        case (.object(let a), .object(let b)): ObjectIdentifier(a) == ObjectIdentifier(b)
        case (.bool, .bool), (.openRPC, .openRPC): true
        default: false
        }
    }
}

/// The JSON types of params and results, each with its JSON Schema.
public enum RPCType: Sendable, Equatable {
    /// A non-empty string of at most `maxStopIDBytes` bytes, or a non-negative integer.
    case stopID
    case stopIDs
    case string(maxBytes: Int)
    case oneOf([String])
    case bool

    public static let maxStopIDBytes = 32

    /// The extension member that gives a string's limit in UTF-8 bytes, the daemon's unit.
    public static let maxBytesMember = "x-maxBytes"

    public var schema: JSON {
        switch self {
        case .stopID:
            ["oneOf": [Self.string(minLength: 1, maxBytes: Self.maxStopIDBytes), ["type": "integer", "minimum": 0]]]
        case .stopIDs: ["type": "array", "items": RPCType.stopID.schema]
        case .string(let maxBytes): Self.string(maxBytes: maxBytes)
        case .oneOf(let choices): ["type": "string", "enum": .array(choices.map(JSON.string))]
        case .bool: ["type": "boolean"]
        }
    }

    /// A string limited in bytes, as the daemon counts (`Params`): said in words and in
    /// `x-maxBytes`. JSON Schema's `maxLength` counts characters; it is kept at the same number,
    /// a bound every string within the byte limit meets, so that generic validators check what they can.
    private static func string(minLength: Int? = nil, maxBytes: Int) -> JSON {
        var schema = JSONObject([("type", "string"), ("description", .string("at most \(maxBytes) bytes of UTF-8"))])
        if let minLength { schema.append("minLength", .int(minLength)) }
        schema.append("maxLength", .int(maxBytes))
        schema.append(maxBytesMember, .int(maxBytes))
        return .object(schema)
    }
}

/// The notifications the daemon pushes to a subscriber (`subscribe`), by method name.
public enum RPCNotification: String, CaseIterable, Sendable {
    case stopSheetChanged
    case healthChanged

    /// The type of its `params`.
    public var params: any AnswerObject.Type {
        switch self {
        case .stopSheetChanged: Answer.SheetChanged.self
        case .healthChanged: Answer.HealthChanged.self
        }
    }

    public var summary: String { params.summary }
}

/// The name of every param, written once: the methods list their params by them (`RPCMethod`),
/// the daemon reads params by them, and the client sends them.
public enum ParamName {
    public static let stopId = "stopId"
    public static let stopIds = "stopIds"
    public static let stopType = "stopType"
    public static let stationName = "stationName"
    public static let what = "what"
    public static let health = "health"
    public static let subscription = "subscription"
}
