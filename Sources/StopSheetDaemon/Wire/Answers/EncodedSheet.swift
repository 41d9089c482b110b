import StopSheetCore
import StopSheetProtocol

/// A sheet's `alertGlyph` (nil: `null`), `alerts` and `accessibilityButton.advisories` values for
/// alerts in dialog order, encoded once per set of alerts and shared by its stations; each alert
/// and each advisory given already encoded (the snapshot encodes each once).
struct EncodedAlertMembers: Sendable {
    let glyph: PreEncoded<Answer.AlertGlyph>?
    let alerts: PreEncoded<[Answer.Alert]>
    let advisories: PreEncoded<[Answer.Advisory]>

    init(_ alerts: [LiveAlert], encodedAlerts: [PreEncoded<Answer.Alert>], encodedAdvisories: [PreEncoded<Answer.Advisory>]) {
        glyph = StopSheet.alertGlyph(alerts).map { PreEncoded($0.answer) }
        self.alerts = PreEncoded(encodedAlerts)
        advisories = PreEncoded(encodedAdvisories)
    }

    static let none = EncodedAlertMembers([], encodedAlerts: [], encodedAdvisories: [])
}

extension StopSheet {
    /// The sheet before station data has loaded (`beforeStationsLoad`), without `data`.
    static func encodedBeforeStationsLoad(stopID: String, stationName: String?) -> EncodedSheet {
        let sheet = beforeStationsLoad(stopID: stopID, stationName: stationName)
        return EncodedSheet(stationID: sheet.stationID, stationName: sheet.stationName, stepFree: sheet.accessibilityButton.stepFree,
                            from: sheet.accessibilityButton.stepFreeFrom, agency: Agency.cta.name,
                            alerts: .none, now: sheet.accessibilityButton.now.encoded(in: .notKnown))
    }
}

/// A `stopSheet` result without its `data`, which moves with the clock while these bytes move
/// only with the data: what a snapshot keeps per station, what push compares, and what each
/// answer completes (`PreEncoded(_:data:)`). `{` and the members, without the closing brace, in
/// pieces: an alert array shared by a line's stations is held by reference, not copied into each.
struct EncodedSheet: Sendable, Equatable {
    let pieces: [[UInt8]]
    /// A train sheet takes `data`; a bus sheet has none.
    let takesData: Bool

    /// A train sheet, its alerts' members and `now` encoded before (a snapshot encodes each once).
    /// `from`: where `stepFree` came from (the station data or its map).
    init(stationID: String, stationName: String, stepFree: StepFreeStatus, from: StepFreeNow.Basis, agency: String, alerts: EncodedAlertMembers,
         now: PreEncoded<Answer.StepFreeNow>) {
        let button = StopSheet.accessibilityButton(stepFree, station: stationName, agency: agency, from: from)
        let members = TrainSheetMembers(stationId: stationID, stationName: stationName, alertGlyph: Nullable(alerts.glyph),
                                        accessibilityButton: ButtonMembers(tone: button.tone, stepFree: button.stepFree, stepFreeFrom: button.stepFreeFrom,
                                                                           accessibilityLabel: button.accessibilityLabel,
                                                                           symbol: button.symbol, alert: button.alert.answer, advisories: alerts.advisories,
                                                                           now: now),
                                        alerts: alerts.alerts)
        pieces = AnswerEncoding.openObject(members)
        takesData = true
    }

    /// A bus stop's sheet: nothing at all, ever.
    init(busStopID stopID: String) {
        pieces = AnswerEncoding.openObject(Answer.Sheet(stopType: .bus, stopId: stopID, stationId: nil, stationName: nil, alertGlyph: nil,
                                                        accessibilityButton: nil, alerts: nil, data: nil))
        takesData = false
    }
}
