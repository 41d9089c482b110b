/// One lift, escalator or other access unit as a live lift-status feed reports it (SIRI-FM,
/// WMATA's `ElevatorIncidents`, NYC Transit's ENE outages): the feed's own words, before anything
/// places it on a station's pathways (`FacilityPlacement`).
public struct FacilityStatus: Hashable, Sendable {
    /// SIRI-FM's four values, which the other feeds map onto: a listed outage is `notAvailable`.
    public enum Status: String, Hashable, Sendable, CaseIterable {
        case available, notAvailable, partiallyAvailable, unknown
    }

    /// Where the feed says the unit is, when it says: each hint is tried in
    /// `FacilityPlacement`'s order.
    public struct Location: Hashable, Sendable {
        /// GTFS stop ids (NYCT's station ids, SIRI-FM's `StopPlaceRef`/`StopPointRef`).
        public var stopIDs: [String]
        /// WMATA's `StationCode` (`A01`): the GTFS station whose id holds it, `STN_A01` or `STN_A01_C01`.
        public var stationCode: String?
        /// The two levels a WMATA "Elevator between Street and Mezzanine" joins, lowercased, as
        /// written: `["street", "mezzanine"]`; the one place of a "Garage elevator", `["garage"]`
        /// (`FacilityLevels`). Empty when the words name none.
        public var levels: [String]

        public init(stopIDs: [String] = [], stationCode: String? = nil, levels: [String] = []) {
            self.stopIDs = stopIDs
            self.stationCode = stationCode
            self.levels = levels
        }
    }

    /// The feed's id for the unit (`EL433`, `A01W03`, `diid:…`).
    public var unitID: String
    public var facility: FacilityOutage.Facility
    public var status: Status
    /// Out since (or, for an upcoming outage, out from).
    public var since: Instant?
    public var expectedBack: Instant?
    /// An outage announced before it starts (NYCT's `isupcomingoutage`): it counts from `since`
    /// to `expectedBack`, as a planned alert does, and not before.
    public var isUpcoming: Bool
    /// The feed's own text (what the unit serves, why it is out), made safe for terminals.
    public var description: String
    /// Whether the feed marks the unit as part of the step-free route (NYCT's `ADA`); nil when
    /// it does not say.
    public var isADA: Bool?
    public var location: Location

    public init(unitID: String, facility: FacilityOutage.Facility, status: Status, since: Instant? = nil, expectedBack: Instant? = nil,
                isUpcoming: Bool = false, description: String = "", isADA: Bool? = nil, location: Location = Location()) {
        self.unitID = unitID
        self.facility = facility
        self.status = status
        self.since = since
        self.expectedBack = expectedBack
        self.isUpcoming = isUpcoming
        self.description = FacilityText.safe(description)
        self.isADA = isADA
        self.location = location
    }

    /// The status that counts at `now`: an upcoming outage is `available` before its start and
    /// after its expected end; every other status stands as reported.
    public func status(at now: Instant) -> Status {
        guard isUpcoming else { return status }
        if let since, now < since { return .available }
        if let expectedBack, now >= expectedBack { return .available }
        return status
    }
}

/// A feed's free text for a terminal: control characters (C0, DEL, C1) and bidirectional
/// overrides become spaces, runs of spaces one, the ends trimmed, at most 300 characters.
public enum FacilityText {
    public static let maxCharacters = 300

    public static func safe(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        var count = 0
        for scalar in text.unicodeScalars {
            let isSpace = scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || (0x202A...0x202E).contains(scalar.value)
                || (0x2066...0x2069).contains(scalar.value) || scalar.value == 0x20
                // ASCII's whitespace is told by value above: Unicode's properties cost a lookup a scalar.
                || (scalar.value >= 0x80 && scalar.properties.isWhitespace)
            if isSpace {
                pendingSpace = !out.isEmpty
                continue
            }
            if pendingSpace {
                // A space only with the character after it: the text never ends in one.
                guard count + 1 < maxCharacters else { break }
                out.append(" ")
                count += 1
                pendingSpace = false
            }
            guard count < maxCharacters else { break }
            out.append(scalar)
            count += 1
        }
        return String(out)
    }
}
