import StopSheetCore
import Testing
@testable import StopSheetDaemon

/// The `stations` order: Unicode collation (Foundation's, ICU's CLDR rules) in the feed's
/// `agency_lang`, else the root collation; ties by id. Prague's metro names, where byte order
/// puts `Háje` after `Hradčanská` and `Černý Most` last.
@Suite struct StationsByNameTests {
    static let names = ["Hradčanská", "Černý Most", "Háje", "Chodov", "Anděl", "Zličín", "Dejvická", "Cerny Most"]

    static func directory(language: String?) -> StationDirectory {
        let platforms = names.enumerated().map { index, name in
            Platform(stopID: "U\(index)Z", stationID: "U\(index)S", stationName: name, routes: [], stepFree: nil)
        }
        return StationDirectory(platforms: platforms, agencies: [Agency(id: nil, name: "DPP", timeZone: "Europe/Prague", language: language)])
    }

    static func sorted(_ language: String?) -> [String] {
        let directory = directory(language: language)
        return StationsByName.order(directory).map { directory.stations[$0].name }
    }

    @Test func rootCollationWithoutALanguage() {
        #expect(Self.sorted(nil) == ["Anděl", "Cerny Most", "Černý Most", "Chodov", "Dejvická", "Háje", "Hradčanská", "Zličín"])
        #expect(Self.sorted("en") == Self.sorted(nil))
    }

    @Test func theFeedsLanguageDecides() {
        // Czech: Č is a letter after C, and Ch one after H.
        #expect(Self.sorted("cs") == ["Anděl", "Cerny Most", "Černý Most", "Dejvická", "Háje", "Hradčanská", "Chodov", "Zličín"])
    }

    @Test func sameNamesByIdInByteOrder() {
        let platforms = ["b", "B", "a"].map { Platform(stopID: $0 + "1", stationID: $0, stationName: "Western", routes: [], stepFree: nil) }
        let directory = StationDirectory(platforms: platforms, agencies: [])
        #expect(StationsByName.order(directory).map { directory.stations[$0].id } == ["B", "a", "b"])
        #expect(StationsByName.order(nil).isEmpty)
        // The same name in two spellings (é precomposed and e + combining acute) collates the
        // same: by id.
        let spelled = [("2", "Caf\u{E9}"), ("1", "Cafe\u{301}"), ("0", "Cafe")].map {
            Platform(stopID: $0.0 + "p", stationID: $0.0, stationName: $0.1, routes: [], stepFree: nil)
        }
        let cafes = StationDirectory(platforms: spelled, agencies: [])
        #expect(StationsByName.order(cafes).map { cafes.stations[$0].id } == ["0", "1", "2"])
    }
}
