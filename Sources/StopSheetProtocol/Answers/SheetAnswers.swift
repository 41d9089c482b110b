import StopSheetCore

extension StopSheet.Tone: AnswerWord {}
extension StepFreeStatus: AnswerWord {}
extension AlertKind: AnswerWord {}
extension StopType: AnswerWord {}

extension Answer {
    /// `stopSheet`'s result, a train station's or a bus stop's: a train sheet has `stationId`,
    /// `stationName`, `alerts` and `data`; a bus sheet `stopId`, and `null` glyph and button.
    public typealias Sheet = SheetOf<String, AlertGlyph, AccessibilityButton, [Alert], SheetData>

    /// `Sheet`, its station's id and name, glyph, button, alerts and data given in any form that
    /// encodes them (`AnswerMember`): the daemon encodes a train sheet once for every station with
    /// the same button, with places for what differs between stations, and `data`, which each
    /// answer fills in.
    public struct SheetOf<Station: AnswerMember, Glyph: AnswerMember, Button: AnswerMember, Alerts: AnswerMember, Data: AnswerMember>: Encodable, Sendable
    where Station.Encodes == String, Glyph.Encodes == AlertGlyph, Button.Encodes == AccessibilityButton, Alerts.Encodes == [Alert], Data.Encodes == SheetData {
        public var stopType: StopType
        public var stopId: String?
        public var stationId: Station?
        public var stationName: Station?
        public var alertGlyph: Glyph?
        public var accessibilityButton: Button?
        public var alerts: Alerts?
        public var data: Data?

        public typealias CodingKeys = SheetKeys

        public init(stopType: StopType, stopId: String?, stationId: Station?, stationName: Station?, alertGlyph: Glyph?, accessibilityButton: Button?,
                    alerts: Alerts?, data: Data?) {
            (self.stopType, self.stopId, self.stationId, self.stationName) = (stopType, stopId, stationId, stationName)
            (self.alertGlyph, self.accessibilityButton, self.alerts, self.data) = (alertGlyph, accessibilityButton, alerts, data)
        }
    }

    /// `Sheet`'s members (apart from the generic type, so that they are one type for every form).
    public enum SheetKeys: String, AnswerKey {
        case stopType, stopId, stationId, stationName, alertGlyph, accessibilityButton, alerts, data
        public static let omittable: Set<Self> = [.stopId, .stationId, .stationName, .alerts, .data]
        public static let variants: AnswerVariants<Self>? = AnswerVariants(by: .stopType, [
            (StopType.train.rawValue, [.stationId, .stationName, .alerts, .data]),
            (StopType.bus.rawValue, [.stopId]),
        ])
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
    public typealias Dialog = DialogOf<String>

    /// `Dialog`, its message given in any form that encodes a string: the daemon leaves the
    /// button's message, the one member that names the station, to be given per station.
    public struct DialogOf<Message: AnswerMember>: AnswerMember where Message.Encodes == String {
        public typealias Encodes = Dialog
        public var title: String
        public var message: Message
        public var buttons: [String]

        public typealias CodingKeys = DialogKeys

        public init(title: String, message: Message, buttons: [String]) { (self.title, self.message, self.buttons) = (title, message, buttons) }
    }

    public enum DialogKeys: String, AnswerKey { case title, message, buttons }

    public typealias Tone = StopSheet.Tone
    public typealias StepFree = StepFreeStatus
    public typealias AlertKind = StopSheetCore.AlertKind

    /// The accessibility button of a train sheet.
    public typealias AccessibilityButton = AccessibilityButtonOf<Dialog, [Advisory], StepFreeNow>

    /// `AccessibilityButton`, its dialog, advisories and `now` given in any form that encodes them.
    public struct AccessibilityButtonOf<Alert: AnswerMember, Advisories: AnswerMember, Now: AnswerMember>: AnswerMember
    where Alert.Encodes == Dialog, Advisories.Encodes == [Advisory], Now.Encodes == StepFreeNow {
        public typealias Encodes = AccessibilityButton
        public var tone: Tone
        public var stepFree: StepFree
        /// Where `stepFree` came from, since protocol 2.2: `stations` (the station data), or
        /// `pathways` (the station's map, where the station data gives none).
        public var stepFreeFrom: StepFreeBasis?
        public var accessibilityLabel: String
        public var symbol: String
        public var alert: Alert
        public var advisories: Advisories
        public var now: Now

        public typealias CodingKeys = AccessibilityButtonKeys

        public init(tone: Tone, stepFree: StepFree, stepFreeFrom: StepFreeBasis?, accessibilityLabel: String, symbol: String, alert: Alert,
                    advisories: Advisories, now: Now) {
            (self.tone, self.stepFree, self.stepFreeFrom, self.accessibilityLabel, self.symbol) = (tone, stepFree, stepFreeFrom, accessibilityLabel, symbol)
            (self.alert, self.advisories, self.now) = (alert, advisories, now)
        }
    }

    public enum AccessibilityButtonKeys: String, AnswerKey {
        case tone, stepFree, stepFreeFrom, accessibilityLabel, symbol, alert, advisories, now
        public static let omittable: Set<Self> = [.stepFreeFrom]
    }

    /// A train sheet's `data`: how fresh each cache behind it is, at the moment of the answer.
    public struct SheetData: AnswerObject {
        public var alerts: Freshness
        public var stations: Freshness
        /// Lift status (`--facilities-url`), since protocol 2.1: stale lift status counts every lift as unknown.
        public var facilities: Freshness?

        public enum CodingKeys: String, AnswerKey {
            case alerts, stations, facilities
            public static let omittable: Set<Self> = [.facilities]
        }

        public static let summary = "How fresh the alerts, the stations and the lift status behind a sheet are."

        public init(alerts: Freshness, stations: Freshness, facilities: Freshness?) {
            (self.alerts, self.stations, self.facilities) = (alerts, stations, facilities)
        }
    }

    /// One cache's freshness in a sheet's `data`.
    public struct Freshness: AnswerObject {
        public var loaded: Bool
        public var ageSeconds: Int?
        public var stale: Bool
        /// When the feed says it was made (GTFS-realtime `header.timestamp`, CTA's `TimeStamp`);
        /// null when it does not say or nothing is loaded.
        public var producedAt: String?
        /// False when the daemon has no source for this data: none is coming.
        public var configured: Bool

        public enum CodingKeys: String, AnswerKey { case loaded, ageSeconds, stale, producedAt, configured }

        public static let summary = "One cache's freshness."

        public init(loaded: Bool, ageSeconds: Int?, stale: Bool, producedAt: String?, configured: Bool) {
            (self.loaded, self.ageSeconds, self.stale, self.producedAt, self.configured) = (loaded, ageSeconds, stale, producedAt, configured)
        }
    }
}

extension Answer.SheetOf: Decodable where Station: Decodable, Glyph: Decodable, Button: Decodable, Alerts: Decodable, Data: Decodable {}
extension Answer.SheetOf: Equatable where Station: Equatable, Glyph: Equatable, Button: Equatable, Alerts: Equatable, Data: Equatable {}
extension Answer.SheetOf: AnswerMember {
    public typealias Encodes = Answer.Sheet
}
extension Answer.SheetOf: AnswerObject where Station == String, Glyph == Answer.AlertGlyph, Button == Answer.AccessibilityButton, Alerts == [Answer.Alert], Data == Answer.SheetData {
    public static var summary: String { "A stop sheet: the alert glyph, the accessibility button and how fresh the data is." }
    public static var schemaName: String { "Sheet" }
}

extension Answer.AccessibilityButtonOf: Decodable where Alert: Decodable, Advisories: Decodable, Now: Decodable {}
extension Answer.AccessibilityButtonOf: Equatable where Alert: Equatable, Advisories: Equatable, Now: Equatable {}
extension Answer.AccessibilityButtonOf: AnswerObject where Alert == Answer.Dialog, Advisories == [Answer.Advisory], Now == Answer.StepFreeNow {
    public static var summary: String { "The accessibility button: tone, step-free status, dialog, advisories and step-free access now." }
    public static var schemaName: String { "AccessibilityButton" }
}

extension Answer.DialogOf: Decodable where Message: Decodable {}
extension Answer.DialogOf: Equatable where Message: Equatable {}
extension Answer.DialogOf: AnswerObject where Message == String {
    public static var summary: String { "A dialog: title, message and buttons." }
    public static var schemaName: String { "Dialog" }
}
