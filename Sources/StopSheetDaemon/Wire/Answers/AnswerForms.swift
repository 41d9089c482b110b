import StopSheetProtocol

// The answers the daemon writes with pieces encoded before, all here: the train sheet (a snapshot's
// alerts and `now`), the push answers (their sheets and health), `stats` (its counts in the daemon's
// order). Each is tied to its answer by `AnswerForm`: its keys, and by `member(_:)` its members' types.

/// `Answer.Sheet` of a train station, with what a snapshot shares between stations given encoded
/// before, and without `data`.
struct TrainSheetMembers: AnswerForm {
    typealias Encodes = Answer.Sheet
    typealias CodingKeys = Answer.Sheet.CodingKeys
    let stopType = StopType.train
    let stopId: String? = nil
    let stationId: String
    let stationName: String
    let alertGlyph: Nullable<PreEncoded<Answer.AlertGlyph>>
    let accessibilityButton: ButtonMembers
    let alerts: PreEncoded<[Answer.Alert]>
    /// Left out (a plain optional): each answer writes it after the members.
    let data: PreEncoded<Answer.SheetData>? = nil

    static func member(_ key: CodingKeys) -> FormMember<Self> {
        switch key {
        case .stopType: FormMember(\.stopType, \.stopType)
        case .stopId: FormMember(\.stopId, \.stopId)
        case .stationId: FormMember(\.stationId, \.stationId)
        case .stationName: FormMember(\.stationName, \.stationName)
        case .alertGlyph: FormMember(\.alertGlyph, \.alertGlyph)
        case .accessibilityButton: FormMember(\.accessibilityButton, \.accessibilityButton)
        case .alerts: FormMember(\.alerts, \.alerts)
        case .data: FormMember(\.data, \.data)
        }
    }
}

/// `Answer.AccessibilityButton` with its advisories and `now` encoded before.
struct ButtonMembers: AnswerForm {
    typealias Encodes = Answer.AccessibilityButton
    typealias CodingKeys = Answer.AccessibilityButton.CodingKeys
    let tone: Answer.Tone
    let stepFree: Answer.StepFree
    let stepFreeFrom: Answer.StepFreeBasis?
    let accessibilityLabel: String
    let symbol: String
    let alert: Answer.Dialog
    let advisories: PreEncoded<[Answer.Advisory]>
    let now: PreEncoded<Answer.StepFreeNow>

    static func member(_ key: CodingKeys) -> FormMember<Self> {
        switch key {
        case .tone: FormMember(\.tone, \.tone)
        case .stepFree: FormMember(\.stepFree, \.stepFree)
        case .stepFreeFrom: FormMember(\.stepFreeFrom, \.stepFreeFrom)
        case .accessibilityLabel: FormMember(\.accessibilityLabel, \.accessibilityLabel)
        case .symbol: FormMember(\.symbol, \.symbol)
        case .alert: FormMember(\.alert, \.alert)
        case .advisories: FormMember(\.advisories, \.advisories)
        case .now: FormMember(\.now, \.now)
        }
    }
}

/// `subscribe`'s answer: the sheets (by stop id, in the order given) and health encoded before.
struct SubscribedMembers: AnswerForm {
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

/// `stopSheetChanged`'s params, the sheet encoded before.
struct SheetChangedMembers: AnswerForm {
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

/// `healthChanged`'s params, the health answer encoded before (once for every watcher).
struct HealthChangedMembers: AnswerForm {
    typealias Encodes = Answer.HealthChanged
    typealias CodingKeys = Answer.HealthChanged.CodingKeys
    let subscription: String
    let seq: Int
    let health: PreEncoded<Answer.Health>

    static func member(_ key: CodingKeys) -> FormMember<Self> {
        switch key {
        case .subscription: FormMember(\.subscription, \.subscription)
        case .seq: FormMember(\.seq, \.seq)
        case .health: FormMember(\.health, \.health)
        }
    }
}

/// `Answer.Stats` with its counts in the daemon's order (`PreEncoded(orderedMembers:)`).
struct StatsMembers: AnswerForm {
    typealias Encodes = Answer.Stats
    typealias CodingKeys = Answer.Stats.CodingKeys
    let since: Nullable<String>
    let requests: PreEncoded<[String: Int]>
    let errors: PreEncoded<[String: Int]>
    let connections: Answer.ConnectionCounts
    let refreshes: Answer.RefreshCounts
    let bytes: Answer.ByteCounts
    let notificationsSent: Int

    static func member(_ key: CodingKeys) -> FormMember<Self> {
        switch key {
        case .since: FormMember(\.since, \.since)
        case .requests: FormMember(\.requests, \.requests)
        case .errors: FormMember(\.errors, \.errors)
        case .connections: FormMember(\.connections, \.connections)
        case .refreshes: FormMember(\.refreshes, \.refreshes)
        case .bytes: FormMember(\.bytes, \.bytes)
        case .notificationsSent: FormMember(\.notificationsSent, \.notificationsSent)
        }
    }
}
