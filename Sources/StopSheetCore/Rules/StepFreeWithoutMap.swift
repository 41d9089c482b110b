/// Step-free now at a station without pathways (basis `stations`, every CTA station; protocol.md,
/// docs/stop-sheet.md §2.4): never "available" by default. Without a map nothing says which
/// platform an elevator serves, so an outage that could be on a platform's way makes that
/// platform's reported `true` unsaid (`nil`); a reported `false` stays `false`, since no outage
/// gives a step-free way back.
///
/// - With no outage that could touch it, a platform's entry and exit are both its reported value
///   (`Platform.stepFree`: `true`, `false`, or `nil` where the station data gives none).
/// - An elevator alert whose prose names platforms (`PlatformPlacement`) makes their `true`s `nil`
///   (an exit-only elevator, their exit's only).
/// - An outage that could be any of the station's elevators (`Reach.everyPlatform`) makes every
///   `true` of every platform `nil`: an elevator alert that names no platform, and a
///   lift-feed unit at the station that is `notAvailable` or `unknown` (every unit of stale data
///   is `unknown`), unless the unit changes nothing (`changesNothing`).
/// - The verdict: `available` when every platform is `true` both ways, `none` when every one is
///   `false` both ways, `unknown` when none is `true` both ways and some value is `nil`, else `partial`.
enum StepFreeWithoutMap {
    /// The platforms an elevator outage can touch at a station without a map, and how.
    struct Reach: Hashable, Sendable {
        /// The stop ids of the platforms it touches; nil for every platform of the station.
        var platforms: Set<String>?
        /// Only the platforms' exit (an exit-only elevator): their entry keeps its value.
        var exitOnly: Bool

        /// Any of the station's elevators: every platform, both ways.
        static let everyPlatform = Reach(platforms: nil, exitOnly: false)

        func touches(_ stopID: String) -> Bool { platforms?.contains(stopID) ?? true }
    }

    /// Each platform's entry and exit: its reported value, a `true` made `nil` by any reach that
    /// touches it. `name`: what the platform is called (its own name, else the station's).
    static func platforms(of station: Station, reaches: [Reach]) -> [StepFreeNow.PlatformAccess] {
        station.platforms.map { platform in
            let touching = reaches.filter { $0.touches(platform.stopID) }
            let entryTouched = touching.contains { !$0.exitOnly }
            let exitTouched = !touching.isEmpty
            let reported = platform.stepFree
            return StepFreeNow.PlatformAccess(stopID: platform.stopID, name: platform.name ?? station.name,
                                              entry: entryTouched && reported == true ? nil : reported,
                                              exit: exitTouched && reported == true ? nil : reported)
        }
    }

    /// The verdict over the platforms' entry and exit.
    static func verdict(_ platforms: [StepFreeNow.PlatformAccess]) -> StepFreeNow.Verdict {
        guard !platforms.isEmpty else { return .unknown }
        if platforms.allSatisfy({ $0.entry == true && $0.exit == true }) { return .available }
        if platforms.allSatisfy({ $0.entry == false && $0.exit == false }) { return .none }
        let anyBoth = platforms.contains { $0.entry == true && $0.exit == true }
        let anyUnsaid = platforms.contains { $0.entry == nil || $0.exit == nil }
        return !anyBoth && anyUnsaid ? .unknown : .partial
    }

    /// A lift-feed unit whose outage could be any of the station's elevators: an elevator (or a
    /// unit of no stated kind) that is `notAvailable` or `unknown` and does not change nothing.
    /// `kind`: the unit's kind as the placement decided it (`FacilityPlacement.kind(of:on:)`,
    /// the one decision), not the feed's word.
    static func couldBeAnyElevator(_ unit: FacilityUnit, kind: FacilityKind) -> Bool {
        kind != .escalator && (unit.status == .notAvailable || unit.status == .unknown) && !changesNothing(unit)
    }

    /// A unit the feed or the inventory marks not on the step-free route (not ADA), or that
    /// another unit stands in for (redundant): its outage leaves every way as it was.
    static func changesNothing(_ unit: FacilityUnit) -> Bool {
        unit.isADA == false || unit.inventory.contains { $0.isADA == false || $0.isRedundant == true }
    }
}
