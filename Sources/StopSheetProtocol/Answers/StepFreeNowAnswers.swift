import StopSheetCore

extension StepFreeNow.Verdict: AnswerWord {}
extension StepFreeNow.Basis: AnswerWord {}
extension StopSheetCore.FacilityKind: AnswerWord {}
extension StopSheetCore.StepFreeNow.Outage.Source: AnswerWord {}
extension StopSheetCore.FacilityUnit.Status: AnswerWord {}
extension StopSheetCore.OutagePlacementRule: AnswerWord {}

extension Answer {
    public typealias StepFreeVerdict = StopSheetCore.StepFreeNow.Verdict
    public typealias StepFreeBasis = StopSheetCore.StepFreeNow.Basis
    public typealias Facility = StopSheetCore.FacilityKind
    public typealias OutageSource = StopSheetCore.StepFreeNow.Outage.Source
    public typealias UnitStatus = StopSheetCore.FacilityUnit.Status
    public typealias OutagePlacement = StopSheetCore.OutagePlacementRule

    /// `accessibilityButton.now` (and `station`'s `now`): step-free access at this moment,
    /// platform by platform, from the station's pathways and its live facility outages. It stands
    /// beside the button's tone and sentence, which it never changes.
    public struct StepFreeNow: AnswerObject {
        public var stepFree: StepFreeVerdict
        public var basis: StepFreeBasis
        /// False when an elevator outage at the station places no pathway.
        public var complete: Bool
        public var platforms: [PlatformAccess]
        /// Elevators first, then escalators, then others.
        public var outages: [FacilityOutage]
        /// Why the pathways cannot say (the verdict is then `unknown`), in a sentence; left out
        /// otherwise. Since protocol 2.2.
        public var reason: String?

        public enum CodingKeys: String, AnswerKey { case stepFree, basis, complete, platforms, outages, reason }

        public static let summary = "Step-free access now: the verdict, its basis, and each platform's step-free entry and exit."

        public init(stepFree: StepFreeVerdict, basis: StepFreeBasis, complete: Bool, platforms: [PlatformAccess], outages: [FacilityOutage],
                    reason: String?) {
            (self.stepFree, self.basis, self.complete, self.platforms, self.outages, self.reason) = (stepFree, basis, complete, platforms, outages, reason)
        }
    }

    /// One platform's step-free entry and exit now; `null` when nothing says (basis `stations`).
    public struct PlatformAccess: AnswerObject {
        public var stopId: String
        public var name: String
        public var entry: Nullable<Bool>
        public var exit: Nullable<Bool>
        /// On a map that shows a street (basis `pathways`): every street end the platform is
        /// reached from or leads to with every pathway open, and whether it does now; `entry` and
        /// `exit` are then its ways'. Left out without a map and where the map shows no street.
        /// Since protocol 2.3.
        public var via: [StepFreeWay]?

        public enum CodingKeys: String, AnswerKey { case stopId, name, entry, exit, via }

        public static let summary = "A platform's step-free entry and exit now, and on a map the street ends they are by."

        public init(stopId: String, name: String, entry: Bool?, exit: Bool?, via: [StepFreeWay]?) {
            (self.stopId, self.name, self.entry, self.exit, self.via) = (stopId, name, Nullable(entry), Nullable(exit), via)
        }
    }

    /// A platform's way: a street end (a step-free entrance, or TfL's `<station>-Outside` node)
    /// and whether the platform is entered from it and left to it step-free now: `false` when
    /// an outage takes the way, `null` when one the verdict cannot rule out may.
    public struct StepFreeWay: AnswerObject {
        public var id: String
        public var name: String
        public var entry: Nullable<Bool>
        public var exit: Nullable<Bool>

        public enum CodingKeys: String, AnswerKey { case id, name, entry, exit }

        public static let summary = "A street end of the station and whether the platform is entered from it and left to it step-free now."

        public init(id: String, name: String, entry: Bool?, exit: Bool?) {
            (self.id, self.name, self.entry, self.exit) = (id, name, Nullable(entry), Nullable(exit))
        }
    }

    /// A live facility outage at the station and the pathways it takes out.
    public struct FacilityOutage: AnswerObject {
        /// The alert's id; `noAlert` (empty) for a unit of a lift-status feed.
        public var alertId: String
        /// What `alertId` says for an outage no alert told (a lift-status unit's): the empty
        /// string, as the wire has always written it (the core and the daemon say nil).
        public static let noAlert = ""
        public var facility: Facility
        /// The first number the headline gives as "Elevator N", if any; a lift-status unit's id.
        public var facilityId: Nullable<String>
        /// The ids of the pathways it takes out (`unknown`: may take out); none for an outage that places none.
        public var pathways: [String]
        /// `alerts` or `facilities` (`--facilities-url`).
        public var source: OutageSource
        /// `notAvailable` for every alert; a lift-status unit's own: `notAvailable`, `partiallyAvailable` or `unknown`.
        public var status: UnitStatus
        /// Out since and expected back, the agency's local time with its offset, when the feed says.
        public var since: Nullable<String>
        public var expectedBack: Nullable<String>
        /// The lift-status feed's own text, made safe for terminals; empty for an alert.
        public var description: String
        /// Why it places no pathway (an elevator alert's: `noRuleMatched`); left out when placed, and for an escalator or other alert.
        public var unplaced: UnplacedReason?
        /// The pathways (lifts) any one of which may be the outage placed on none; left out when none.
        public var candidates: [String]?
        /// How an alert's outage was placed: on pathways (`id`, `stopReference`) or, without a map,
        /// on platforms by its prose (`direction`, `line`); left out when not placed. Since 2.3.
        public var placedBy: OutagePlacement?
        /// Without a map, the stop ids of the platforms whose values it nulls; left out otherwise. Since 2.3.
        public var platforms: [String]?

        public enum CodingKeys: String, AnswerKey {
            case alertId, facility, facilityId, pathways, source, status, since, expectedBack, description, unplaced, candidates, placedBy, platforms
        }

        public static let summary = "A facility outage: its alert or unit, facility, the pathways it takes out, its source, status, times, text, why it is unplaced, how it was placed and the platforms it touches."

        public init(alertId: String, facility: Facility, facilityId: String?, pathways: [String], source: OutageSource, status: UnitStatus, since: String?,
                    expectedBack: String?, description: String, unplaced: UnplacedReason?, candidates: [String]?,
                    placedBy: OutagePlacement?, platforms: [String]?) {
            (self.alertId, self.facility, self.facilityId, self.pathways, self.source, self.status) = (alertId, facility, Nullable(facilityId), pathways, source, status)
            (self.since, self.expectedBack, self.description, self.unplaced, self.candidates) = (Nullable(since), Nullable(expectedBack), description, unplaced, candidates)
            (self.placedBy, self.platforms) = (placedBy, platforms)
        }

        /// An elevator outage that places no pathway (what makes `complete` false): the core's rule.
        public var isUnresolved: Bool {
            StopSheetCore.StepFreeNow.Outage.isUnresolved(facility: facility, pathways: pathways, status: status)
        }
    }
}
