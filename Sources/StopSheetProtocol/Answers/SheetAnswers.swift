import StopSheetCore

extension StopSheet.Tone: AnswerWord {}
extension StepFreeStatus: AnswerWord {}
extension AlertKind: AnswerWord {}
extension StopType: AnswerWord {}

extension Answer {
    /// `stopSheet`'s result, a train station's or a bus stop's: a train sheet has `stationId`,
    /// `stationName`, `alerts` and `data`; a bus sheet `stopId`, and `null` glyph and button.
    public struct Sheet: AnswerObject {
        public var stopType: StopType
        public var stopId: String?
        public var stationId: String?
        public var stationName: String?
        public var alertGlyph: Nullable<AlertGlyph>
        public var accessibilityButton: Nullable<AccessibilityButton>
        public var alerts: [Alert]?
        public var data: SheetData?

        public enum CodingKeys: String, AnswerKey {
            case stopType, stopId, stationId, stationName, alertGlyph, accessibilityButton, alerts, data
            public static let variants: AnswerVariants<Self>? = AnswerVariants(by: .stopType, [
                (StopType.train.rawValue, [.stationId, .stationName, .alerts, .data]),
                (StopType.bus.rawValue, [.stopId]),
            ])
        }

        public static let summary = "A stop sheet: the alert glyph, the accessibility button and how fresh the data is."

        public init(stopType: StopType, stopId: String?, stationId: String?, stationName: String?, alertGlyph: AlertGlyph?,
                    accessibilityButton: AccessibilityButton?, alerts: [Alert]?, data: SheetData?) {
            (self.stopType, self.stopId, self.stationId, self.stationName) = (stopType, stopId, stationId, stationName)
            (self.alertGlyph, self.accessibilityButton, self.alerts, self.data) = (Nullable(alertGlyph), Nullable(accessibilityButton), alerts, data)
        }
    }

    /// The glyph shown when live alerts apply.
    public struct AlertGlyph: AnswerObject {
        public var count: Int
        public var accessibilityLabel: String
        public var alert: Dialog

        public enum CodingKeys: String, AnswerKey { case count, accessibilityLabel, alert }

        public static let summary = "The alert glyph and its dialog."

        public init(count: Int, accessibilityLabel: String, alert: Dialog) {
            (self.count, self.accessibilityLabel, self.alert) = (count, accessibilityLabel, alert)
        }
    }

    /// A dialog the sheet opens: the glyph's and the button's.
    public struct Dialog: AnswerObject {
        public var title: String
        public var message: String
        public var buttons: [String]

        public enum CodingKeys: String, AnswerKey { case title, message, buttons }

        public static let summary = "A dialog: title, message and buttons."

        public init(title: String, message: String, buttons: [String]) { (self.title, self.message, self.buttons) = (title, message, buttons) }
    }

    public typealias Tone = StopSheet.Tone
    public typealias StepFree = StepFreeStatus
    public typealias AlertKind = StopSheetCore.AlertKind

    /// The accessibility button of a train sheet.
    public struct AccessibilityButton: AnswerObject {
        public var tone: Tone
        public var stepFree: StepFree
        /// Where `stepFree` came from, since protocol 2.2: `stations` (the station data), or
        /// `pathways` (the station's map, where the station data gives none).
        public var stepFreeFrom: StepFreeBasis?
        public var accessibilityLabel: String
        public var symbol: String
        public var alert: Dialog
        public var advisories: [Advisory]
        public var now: StepFreeNow

        public enum CodingKeys: String, AnswerKey { case tone, stepFree, stepFreeFrom, accessibilityLabel, symbol, alert, advisories, now }

        public static let summary = "The accessibility button: tone, step-free status, dialog, advisories and step-free access now."

        public init(tone: Tone, stepFree: StepFree, stepFreeFrom: StepFreeBasis?, accessibilityLabel: String, symbol: String, alert: Dialog,
                    advisories: [Advisory], now: StepFreeNow) {
            (self.tone, self.stepFree, self.stepFreeFrom, self.accessibilityLabel, self.symbol) = (tone, stepFree, stepFreeFrom, accessibilityLabel, symbol)
            (self.alert, self.advisories, self.now) = (alert, advisories, now)
        }
    }

    /// A train sheet's `data`: how fresh each cache behind it is, at the moment of the answer.
    public struct SheetData: AnswerObject {
        public var alerts: Freshness
        public var stations: Freshness
        /// Lift status (`--facilities-url`), since protocol 2.1: stale lift status counts every lift as unknown.
        public var facilities: Freshness?

        public enum CodingKeys: String, AnswerKey { case alerts, stations, facilities }

        public static let summary = "How fresh the alerts, the stations and the lift status behind a sheet are."

        public init(alerts: Freshness, stations: Freshness, facilities: Freshness?) {
            (self.alerts, self.stations, self.facilities) = (alerts, stations, facilities)
        }
    }

    /// One cache's freshness in a sheet's `data`.
    public struct Freshness: AnswerObject {
        public var loaded: Bool
        public var ageSeconds: Nullable<Int>
        public var stale: Bool
        /// When the feed says it was made (GTFS-realtime `header.timestamp`, CTA's `TimeStamp`);
        /// null when it does not say or nothing is loaded.
        public var producedAt: Nullable<String>
        /// False when the daemon has no source for this data: none is coming.
        public var configured: Bool

        public enum CodingKeys: String, AnswerKey { case loaded, ageSeconds, stale, producedAt, configured }

        public static let summary = "One cache's freshness."

        public init(loaded: Bool, ageSeconds: Int?, stale: Bool, producedAt: String?, configured: Bool) {
            (self.loaded, self.ageSeconds, self.stale, self.producedAt, self.configured) = (loaded, Nullable(ageSeconds), stale, Nullable(producedAt), configured)
        }
    }
}
