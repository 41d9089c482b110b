@testable import StopSheetCore

/// Small hand-built stations mirroring real CTA ones, for rules whose edge cases the real
/// files do not all contain. Real-data checks live beside the decoders' fixtures.
enum RulesTestData {
    static let now = TestZones.chicago.instant(.init(year: 2015, month: 2, day: 14, hour: 14, minute: 35))

    static func platform(_ stop: String, _ station: String, _ name: String = "Clark/Lake", _ routes: [RouteID], _ stepFree: Bool?) -> Platform {
        Platform(stopID: stop, stationID: station, stationName: name, direction: "N", routes: routes, stepFree: stepFree)
    }

    /// Clark/Lake (Blue, and the Loop lines incl. Purple Express), 69th (Red), Howard (Red, P, Y),
    /// Quincy (Loop, Purple Express only).
    static let directory = StationDirectory(platforms: [
        platform("30374", "40380", "Clark/Lake", [.blue], true),
        platform("30375", "40380", "Clark/Lake", [.blue], true),
        platform("30074", "40380", "Clark/Lake", [.brown, .purpleExpress, .orange, .pink], false),
        platform("30192", "40990", "69th", [.red], true),
        platform("30193", "40990", "69th", [.red], true),
        platform("30173", "40900", "Howard", [.red, .purple, .yellow], nil),
        platform("30007", "40040", "Quincy/Wells", [.brown, .purpleExpress], false),
    ])

    static func station(_ id: String) -> Station { directory.station(for: id)! }

    static func alert(_ id: String, _ scopes: [AlertScope], kind: Alert.KindSource = .stated(.active), start: Instant? = nil, end: Instant? = nil,
                      headline: String? = nil, description: String = "") -> Alert
    {
        Alert(id: id, kindSource: kind, headline: headline ?? "Alert \(id)", description: description, start: start, end: end, scopes: scopes)
    }
}
