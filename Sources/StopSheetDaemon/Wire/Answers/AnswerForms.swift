import StopSheetProtocol

// The answers the daemon writes with pieces encoded before, all here: the train sheet (a snapshot's
// alerts and `now`), the push answers (their sheets and health), `stats` (its counts in the daemon's
// order).

/// `Answer.Sheet` of a train station, with what a snapshot shares between stations given encoded
/// before, and without `data`.
struct TrainSheetMembers: AnswerForm {
    typealias Encodes = Answer.Sheet
    typealias CodingKeys = Answer.Sheet.CodingKeys
    let stopType = StopType.train
    let stopId: String? = nil
    let stationId: String
    let stationName: String
    let alertGlyph: PreEncoded<Answer.AlertGlyph>?
    let accessibilityButton: ButtonMembers
    let alerts: PreEncoded<[Answer.Alert]>
    /// Left out (omittable): each answer writes it after the members.
    let data: PreEncoded<Answer.SheetData>? = nil
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
}

// The push answers with their sheets and health encoded before (`AnswerForm`), the sheets in the
// order the stop ids were given.

struct SubscribedMembers: AnswerForm {
    typealias Encodes = Answer.Subscribed
    typealias CodingKeys = Answer.Subscribed.CodingKeys
    let subscription: String
    let sheets: OrderedMembers<PreEncoded<Answer.Sheet>>?
    let health: PreEncoded<Answer.Health>?
}

struct SheetChangedMembers: AnswerForm {
    typealias Encodes = Answer.SheetChanged
    typealias CodingKeys = Answer.SheetChanged.CodingKeys
    let subscription: String
    let seq: Int
    let stopId: String
    let sheet: PreEncoded<Answer.Sheet>?
}

struct HealthChangedMembers: AnswerForm {
    typealias Encodes = Answer.HealthChanged
    typealias CodingKeys = Answer.HealthChanged.CodingKeys
    let subscription: String
    let seq: Int
    let health: PreEncoded<Answer.Health>
}

/// `Answer.Stats` with its counts in the daemon's order (`AnswerForm`).
struct StatsMembers: AnswerForm {
    typealias Encodes = Answer.Stats
    typealias CodingKeys = Answer.Stats.CodingKeys
    let since: String?
    let requests: OrderedMembers<Int>
    let errors: OrderedMembers<Int>
    let connections: Answer.ConnectionCounts
    let refreshes: Answer.RefreshCounts
    let bytes: Answer.ByteCounts
    let notificationsSent: Int
}
