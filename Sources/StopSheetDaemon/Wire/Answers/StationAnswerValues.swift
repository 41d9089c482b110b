import StopSheetCore
import StopSheetProtocol

/// `station` and `stations` as answers (`Answer.Station`, `.StationSummary`, `.Line`,
/// `.Platform`, `.Entrance`).
extension Station {
    /// One entry of `stations`, and the first members of the `station` detail. `lines` follows
    /// `routes` when the source describes its lines (a GTFS feed); CTA's own formats give ids
    /// only, and their answers have no `lines` member. `stepFreeNow` is the word of the station's
    /// `StepFreeNow` (its sheet's `accessibilityButton.now.stepFree`).
    func summary(stepFreeNow: StepFreeNow.Verdict) -> Answer.StationSummary {
        Answer.StationSummary(stationId: id, stationName: name, routes: routes.map(\.rawValue), lines: lines.isEmpty ? nil : lines.map(\.answer),
                              stepFree: stepFree, partial: partial, stepFreeFrom: stepFreeFrom, stepFreeNow: stepFreeNow)
    }

    /// The `station` detail: the summary's members, then platforms, entrances, the sheet's
    /// advisories and `now`.
    func detail(advisories: [AccessibilityAdvisory], now: StepFreeNow, in zone: TimeZoneRules) -> Answer.Station {
        Answer.Station(summary: summary(stepFreeNow: now.stepFree), platforms: platforms.map(\.answer), entrances: entrances.map(\.answer),
                       advisories: advisories.map { $0.answer(in: zone) }, now: now.answer(in: zone))
    }
}

extension Line {
    /// GTFS's `route_short_name`, `route_long_name`, `route_color`, `route_type`, null when absent.
    var answer: Answer.Line { Answer.Line(id: id.rawValue, shortName: shortName, longName: longName, color: color, routeType: routeType) }
}

extension Platform {
    var answer: Answer.Platform { Answer.Platform(stopId: stopID, direction: direction, routes: routes.map(\.rawValue), stepFree: stepFree) }
}

extension Entrance {
    var answer: Answer.Entrance { Answer.Entrance(id: id, name: name, stepFree: stepFree) }
}
