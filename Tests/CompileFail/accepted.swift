// Compiles: the same calls as the snippets beside it, each with its own method's types. If this
// fails, the checks' setup is broken, not the types.
import StopSheetCore
import StopSheetProtocol
@testable import StopSheetClient
@testable import StopSheetDaemon

func handlers(_ dispatcher: inout Dispatcher, _ service: StopSheetService) {
    dispatcher.register(Methods.Stations.self) { _, _ in .of { () throws(RPCError) in try service.stations() } }
    dispatcher.registerExact(Methods.StopSheet.self, param: .stopId) { stopID, _ in .of { () throws(RPCError) in try service.stopSheet(StopSheetQuery(stopID: stopID)) } }
}

func client(_ client: StopSheetClient) throws {
    let _: Reply<Answer.Station> = try client.call(Methods.Station.self, Methods.Station.Params(stopId: StopID("40380")!))
    _ = try client.call(Methods.Station.self, Methods.Station.Params(stopId: StopID("40380")!))
}

func notification(_ params: PreEncoded<Answer.HealthChanged>, _ json: JSON) throws {
    _ = NotificationQueue.Notification(Notifications.HealthChanged.self, params: params)
    _ = try Reply<Answer.HealthChanged>(json, of: Notifications.HealthChanged.self)
}

/// A form that keeps to its answer: its keys, each member's type or `PreEncoded` of it, every key paired.
struct SheetChangedAsItsAnswer: AnswerForm {
    typealias Encodes = Answer.SheetChanged
    typealias CodingKeys = Answer.SheetChanged.CodingKeys
    let subscription: String
    let seq: Int
    let stopId: String
    let sheet: Nullable<PreEncoded<Answer.Sheet>>

    static func member(_ key: CodingKeys) -> FormMember<Self> {
        switch key {
        case .subscription: FormMember(\.subscription, \.subscription)
        case .seq: FormMember(\.seq, \.seq)
        case .stopId: FormMember(\.stopId, \.stopId)
        case .sheet: FormMember(\.sheet, \.sheet)
        }
    }
}

/// A form whose members are absent as its answer's are: left out (`sheets`, `health`: `T?`).
struct SubscribedAsItsAnswer: AnswerForm {
    typealias Encodes = Answer.Subscribed
    typealias CodingKeys = Answer.Subscribed.CodingKeys
    let subscription: String
    let sheets: PreEncoded<[String: Answer.Sheet]>?
    let health: PreEncoded<Answer.Health>?

    static func member(_ key: CodingKeys) -> FormMember<Self> {
        switch key {
        case .subscription: FormMember(\.subscription, \.subscription)
        case .sheets: FormMember(\.sheets, \.sheets)
        case .health: FormMember(\.health, \.health)
        }
    }
}

/// An answer with each optional member given, nil included.
func mapWithItsReason() -> Answer.StationMap {
    Answer.StationMap(stationId: "40380", map: nil, reason: nil)
}
