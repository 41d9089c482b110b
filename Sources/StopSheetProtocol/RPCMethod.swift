import StopSheetCore

/// One method of the protocol as a type, as sourcekit-lsp's requests and varlink's methods are:
/// its name, its params (`Params`, which the daemon decodes before dispatch and `rpc.discover`
/// describes), its result (`Result`, which the daemon writes, the client decodes and
/// `rpc.discover` describes), and the error codes it adds to `ErrorCode.anyRequest`. The daemon
/// registers a handler by it (`Dispatcher.register`), taking its `Params`; the client calls by
/// it and gets its `Result`: a handler or a call paired with another method's params or answer
/// does not compile. protocol.md says in words what each one does, and a test holds the two
/// together.
public protocol RPCMethodType {
    associatedtype Params: RPCParams
    associatedtype Result: Sendable
    static var name: String { get }
    static var summary: String { get }
    /// A name for the result, for generated code: the method's own, unless it says another.
    static var resultName: String { get }
    /// What `Result` is on the wire, for `rpc.discover`: read off `Result` (an answer object,
    /// `Bool`, or the OpenRPC document), so a method with any other result does not compile.
    static var resultType: AnswerType { get }
    static var errors: [ErrorCode] { get }
}

extension RPCMethodType {
    public static var resultName: String { name }
}

extension RPCMethodType where Result == Bool {
    public static var resultType: AnswerType { .bool }
}

extension RPCMethodType where Result == JSON {
    public static var resultType: AnswerType { .openRPC }
}

extension RPCMethodType {
    /// Its description, as `rpc.discover` lists it.
    public static var method: RPCMethod { RPCMethod(self) }
}

extension RPCMethodType where Result: AnswerObject {
    public static var resultType: AnswerType { .object(Result.self) }
}

/// Every method of the protocol, as types.
public enum Methods {
    public enum StopSheet: RPCMethodType {
        public static let name = "stopSheet"
        public static let summary = "The stop sheet of a stop: alert glyph, dialog, accessibility button and data freshness."
        public static let errors: [ErrorCode] = [.unknownStop]
        public typealias Result = Answer.Sheet

        public struct Params: RPCParams, Equatable {
            public var stopId: StopID
            public var stopType: StopType?
            public var stationName: ParamText?
            public enum CodingKeys: String, CodingKey { case stopId, stopType, stationName }

            public init(stopId: StopID, stopType: StopType? = nil, stationName: ParamText? = nil) {
                self.stopId = stopId
                self.stopType = stopType
                self.stationName = stationName
            }
        }
    }

    public enum Station: RPCMethodType {
        public static let name = "station"
        public static let summary = "A station's detail: routes, platforms, step-free status and accessibility advisories."
        public static let errors: [ErrorCode] = [.unknownStop, .notLoaded]
        public typealias Result = Answer.Station

        public struct Params: RPCParams, Equatable {
            public var stopId: StopID
            public enum CodingKeys: String, CodingKey { case stopId }

            public init(stopId: StopID) { self.stopId = stopId }
        }
    }

    public enum StationMap: RPCMethodType {
        public static let name = "stationMap"
        public static let summary = "A station's map: its locations, pathways, what is out, and each platform's step-free ways; null without one."
        public static let errors: [ErrorCode] = [.unknownStop, .notLoaded]
        public typealias Result = Answer.StationMap

        public struct Params: RPCParams, Equatable {
            public var stopId: StopID
            public enum CodingKeys: String, CodingKey { case stopId }

            public init(stopId: StopID) { self.stopId = stopId }
        }
    }

    public enum Stations: RPCMethodType {
        public static let name = "stations"
        public static let summary = "Every station, by name, without platforms."
        public static let errors: [ErrorCode] = [.notLoaded]
        public typealias Params = NoParams
        public typealias Result = Answer.Stations
    }

    public enum Alerts: RPCMethodType {
        public static let name = "alerts"
        public static let summary = "Live train alerts: all, or those applying to a stop in dialog order."
        public static let errors: [ErrorCode] = [.unknownStop, .notLoaded]
        public typealias Result = Answer.Alerts

        public struct Params: RPCParams, Equatable {
            public var stopId: StopID?
            public enum CodingKeys: String, CodingKey { case stopId }

            public init(stopId: StopID? = nil) { self.stopId = stopId }
        }
    }

    public enum Facilities: RPCMethodType {
        public static let name = "facilities"
        public static let summary = "Lift-status units (--facilities-url) and their statuses: all, or a stop's station's."
        public static let errors: [ErrorCode] = [.unknownStop, .notLoaded]
        public typealias Result = Answer.Facilities

        public struct Params: RPCParams, Equatable {
            public var stopId: StopID?
            public enum CodingKeys: String, CodingKey { case stopId }

            public init(stopId: StopID? = nil) { self.stopId = stopId }
        }
    }

    public enum Health: RPCMethodType {
        public static let name = "health"
        public static let summary = "Whether the daemon can answer, and each cache's state."
        public static let errors: [ErrorCode] = []
        public typealias Params = NoParams
        public typealias Result = Answer.Health
    }

    public enum Refresh: RPCMethodType {
        public static let name = "refresh"
        public static let summary = "Refresh now; answered when done, with the health entries of what was refreshed. Root and the daemon's user only."
        public static let resultName = "refreshed"
        public static let errors: [ErrorCode] = [.notPermitted]
        public typealias Result = Answer.Refreshed

        public struct Params: RPCParams, Equatable {
            public var what: RefreshTarget?
            public enum CodingKeys: String, CodingKey { case what }

            public init(what: RefreshTarget? = nil) { self.what = what }
        }
    }

    public enum Stats: RPCMethodType {
        public static let name = "stats"
        public static let summary = "What the daemon has counted since it started."
        public static let errors: [ErrorCode] = []
        public typealias Params = NoParams
        public typealias Result = Answer.Stats
    }

    public enum Version: RPCMethodType {
        public static let name = "version"
        public static let summary = "The daemon's name, version and protocol version."
        public static let errors: [ErrorCode] = []
        public typealias Params = NoParams
        public typealias Result = Answer.Version
    }

    public enum Subscribe: RPCMethodType {
        public static let name = "subscribe"
        public static let summary = "Follow stop sheets and health on this connection: stopSheetChanged and healthChanged notifications."
        public static let resultName = "subscription"
        public static let errors: [ErrorCode] = [.unknownStop, .subscriptionLimit]
        public typealias Result = Answer.Subscribed

        public struct Params: RPCParams, Equatable {
            public var stopIds: [StopID]?
            public var stopType: StopType?
            public var health: Bool?
            public enum CodingKeys: String, CodingKey { case stopIds, stopType, health }

            public init(stopIds: [StopID]? = nil, stopType: StopType? = nil, health: Bool? = nil) {
                self.stopIds = stopIds
                self.stopType = stopType
                self.health = health
            }

            /// Something to follow: a stop, or the health.
            public func validate() throws(RPCError) {
                guard !(stopIds ?? []).isEmpty || health == true else {
                    throw .invalidParams("nothing to subscribe to: give '\(CodingKeys.stopIds.stringValue)' or '\(CodingKeys.health.stringValue)': true")
                }
            }
        }
    }

    public enum Unsubscribe: RPCMethodType {
        public static let name = "unsubscribe"
        public static let summary = "End one of this connection's subscriptions."
        public static let resultName = "ended"
        public static let errors: [ErrorCode] = [.unknownSubscription]
        public typealias Result = Bool

        public struct Params: RPCParams, Equatable {
            public var subscription: ParamText
            public enum CodingKeys: String, CodingKey { case subscription }

            public init(subscription: ParamText) { self.subscription = subscription }
        }
    }

    /// The OpenRPC service description of every method above (`OpenRPC.document`).
    public enum Discover: RPCMethodType {
        public static let name = "rpc.discover"
        public static let summary = "This service's OpenRPC description."
        public static let resultName = "OpenRPC Schema"
        public static let errors: [ErrorCode] = []
        public typealias Params = NoParams
        public typealias Result = JSON
    }
}

/// A method's description, as `rpc.discover` lists it: read off its type (`RPCMethodType`), the
/// params from its `Params` type (`ParamsShape`).
public struct RPCMethod: Sendable {
    public let name: String
    public let summary: String
    public let params: [RPCParam]
    public let result: RPCResult
    public let errors: [ErrorCode]

    /// The names `params` may carry: any other is -32602.
    public var paramNames: Set<String> { Set(params.map(\.name)) }

    public init<Method: RPCMethodType>(_ method: Method.Type) {
        name = Method.name
        summary = Method.summary
        params = ParamsShape(Method.Params.self).params
        result = RPCResult(Method.resultName, Method.resultType)
        errors = Method.errors
    }

    /// Every method the daemon serves, `rpc.discover` last (OpenRPC lists it in no document).
    public static let all: [RPCMethod] = [
        Methods.StopSheet.method, Methods.Station.method, Methods.StationMap.method, Methods.Stations.method, Methods.Alerts.method, Methods.Facilities.method,
        Methods.Health.method, Methods.Refresh.method, Methods.Stats.method, Methods.Version.method, Methods.Subscribe.method,
        Methods.Unsubscribe.method, Methods.Discover.method,
    ]
}

/// A method's result: a name for generated code, and its type (`Answer`), which the daemon
/// writes, the client decodes and `rpc.discover` describes.
public struct RPCResult: Sendable {
    public let name: String
    public let type: AnswerType

    init(_ name: String, _ type: AnswerType) {
        self.name = name
        self.type = type
    }
}

/// What a result or a notification's params is.
public enum AnswerType: Sendable {
    case object(any AnswerObject.Type)
    case bool
    /// `rpc.discover`'s: an OpenRPC document, which OpenRPC's own meta-schema describes.
    case openRPC
}

/// A notification the daemon pushes to a subscriber (`subscribe`), as a type: its method name
/// and its params, which the daemon sends (`Subscriptions.queue`) and the client decodes by it.
public protocol RPCNotificationType {
    associatedtype Params: AnswerObject
    static var name: String { get }
}

extension RPCNotificationType {
    public static var summary: String { Params.summary }
    /// `Params`, for `rpc.discover`.
    public static var paramsType: any AnswerObject.Type { Params.self }
}

/// Every notification of the protocol, as types.
public enum Notifications {
    public enum StopSheetChanged: RPCNotificationType {
        public static let name = "stopSheetChanged"
        public typealias Params = Answer.SheetChanged
    }

    public enum HealthChanged: RPCNotificationType {
        public static let name = "healthChanged"
        public typealias Params = Answer.HealthChanged
    }

    /// In `rpc.discover`'s order.
    public static let all: [any RPCNotificationType.Type] = [StopSheetChanged.self, HealthChanged.self]
}
