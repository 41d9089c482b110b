/// A train station's stop sheet as the spec defines it: the alert glyph and the accessibility
/// button, with every user-visible string. The spec's words live here and nowhere else.
public struct StopSheet: Sendable, Equatable {
    public struct AlertDialog: Sendable, Equatable {
        public var title: String
        public var message: String
        public var buttons: [String]
    }

    public struct AlertGlyph: Sendable, Equatable {
        public var count: Int
        public var accessibilityLabel: String
        public var alert: AlertDialog
    }

    public enum Tone: String, Sendable, CaseIterable, Codable {
        case good, warn, muted
    }

    public struct AccessibilityButton: Sendable, Equatable {
        public var tone: Tone
        public var stepFree: StepFreeStatus
        /// Where `stepFree` came from: the station data, or the station's map where it gives none.
        public var stepFreeFrom: StepFreeNow.Basis
        public var accessibilityLabel: String
        public var symbol: String
        public var alert: AlertDialog
        /// Applying alerts about accessibility, beside the sentence: they never change it.
        public var advisories: [AccessibilityAdvisory]
        /// Step-free access at this moment, platform by platform, beside the sentence: it never
        /// changes it either.
        public var now: StepFreeNow
    }

    public var stationID: String
    public var stationName: String
    /// Nil when no alert applies or alert data is absent: no glyph, and no space reserved.
    public var alertGlyph: AlertGlyph?
    public var accessibilityButton: AccessibilityButton
    /// The applying alerts in dialog order.
    public var alerts: [LiveAlert]

    /// The sheet for a known station. `alerts` nil means alert data is absent (not yet loaded).
    /// `now` is the station's verdict from its pathways (`Snapshot.stepFreeNow`); nil, the verdict
    /// without pathways, from the active applying alerts.
    public init(station: Station, alerts: [LiveAlert]?, now: StepFreeNow? = nil) {
        let verdict = now ?? StepFreeNow(station: station, topology: nil,
                                         outages: (alerts ?? []).filter { $0.kind == .active }.compactMap { AlertOutage($0.alert) })
        self.init(stationID: station.id, stationName: station.name, stepFree: station.stepFree, alerts: alerts, agency: station.agencyName,
                  now: verdict, stepFreeFrom: station.stepFreeFrom)
    }

    /// The sheet before station data has loaded: the caller's name for the station (or its id),
    /// a muted button, and no glyph — without the station's lines no alert can be matched.
    public static func beforeStationsLoad(stopID: String, stationName: String?) -> StopSheet {
        let name = stationName.map(StationDirectory.normalisedName).flatMap { $0.isEmpty ? nil : $0 } ?? stopID
        return StopSheet(stationID: stopID, stationName: name, stepFree: .unknown, alerts: nil)
    }

    /// `agency` is the name the "none" sentence gives (`Station.agencyName`).
    public init(stationID: String, stationName: String, stepFree: StepFreeStatus, alerts: [LiveAlert]?, agency: String = Agency.cta.name,
                now: StepFreeNow? = nil, stepFreeFrom: StepFreeNow.Basis = .stations) {
        self.stationID = stationID
        self.stationName = stationName
        let ordered = StopSheet.dialogOrder(alerts ?? [], kind: \.kind)
        self.alerts = ordered
        self.alertGlyph = StopSheet.alertGlyph(ordered)
        self.accessibilityButton = StopSheet.accessibilityButton(stepFree, station: stationName, agency: agency,
                                                                 advisories: AccessibilityAdvisory.advisories(among: ordered), now: now,
                                                                 from: stepFreeFrom)
    }

    /// The glyph of a sheet whose applying alerts are `ordered` (dialog order): none without alerts.
    public static func alertGlyph(_ ordered: [LiveAlert]) -> AlertGlyph? {
        ordered.isEmpty ? nil : AlertGlyph(
            count: ordered.count,
            accessibilityLabel: StopSheet.glyphLabel(count: ordered.count),
            alert: AlertDialog(title: "Train service alerts", message: ordered.map(StopSheet.dialogItem).joined(separator: "\n\n"), buttons: ["Close"]))
    }

    /// The tone and the sentence depend on the station's step-free status alone; alerts add
    /// advisories beside them.
    public static func accessibilityButton(_ stepFree: StepFreeStatus, station stationName: String, agency: String = Agency.cta.name,
                                           advisories: [AccessibilityAdvisory] = [], now: StepFreeNow? = nil,
                                           from: StepFreeNow.Basis = .stations) -> AccessibilityButton {
        AccessibilityButton(
            tone: StopSheet.tone(stepFree), stepFree: stepFree, stepFreeFrom: from, accessibilityLabel: "Accessibility information", symbol: "figure.roll",
            alert: AlertDialog(title: "Accessibility", message: StopSheet.accessibilityMessage(stepFree, station: stationName, agency: agency), buttons: ["Close"]),
            advisories: advisories, now: now ?? .reported(stepFree))
    }

    /// Active, then planned, then unknown; upstream order (the order given) within each group.
    /// Generic so that alerts and positions of alerts are ordered by this one rule.
    /// One stable pass per kind, not a sort: every sheet of every rebuild comes through here.
    public static func dialogOrder<Item>(_ items: [Item], kind: (Item) -> AlertKind) -> [Item] {
        guard items.count > 1 else { return items }
        var ordered: [Item] = []
        ordered.reserveCapacity(items.count)
        for wanted in AlertKind.allCases {
            for item in items where kind(item) == wanted { ordered.append(item) }
        }
        return ordered
    }

    public static func glyphLabel(count: Int) -> String {
        count == 1 ? "1 train service alert" : "\(count) train service alerts"
    }

    public static func dialogItem(_ live: LiveAlert) -> String {
        let prefix: String
        switch live.kind {
        case .active: prefix = "Active train alert: "
        case .planned: prefix = "Planned train alert: "
        case .unknown: prefix = "Train alert: "
        }
        let description = live.alert.description
        return prefix + live.alert.headline + (description.isEmpty ? "" : "\n" + description)
    }

    public static func tone(_ stepFree: StepFreeStatus) -> Tone {
        switch stepFree {
        case .available: return .good
        case .none: return .warn
        case .unknown: return .muted
        }
    }

    /// `agency` names who reports: "CTA" for CTA's data, else the feed's `agency_name`.
    public static func accessibilityMessage(_ stepFree: StepFreeStatus, station: String, agency: String = Agency.cta.name) -> String {
        let (before, after) = accessibilityMessage(stepFree, agency: agency)
        return before + station + after
    }

    /// The sentence's words before and after the station's name: a wire encoding that writes
    /// thousands of sheets puts the name between them without building each sentence.
    public static func accessibilityMessage(_ stepFree: StepFreeStatus, agency: String = Agency.cta.name) -> (before: String, after: String) {
        switch stepFree {
        case .available: return ("Step-free access is available at ", ".")
        case .none: return ("\(agency) currently reports no step-free access at ", ".")
        case .unknown: return ("Accessibility information is currently unavailable for ", ".")
        }
    }
}
