import StopSheetCore
import StopSheetTestSupport
import Testing
@testable import StopSheetDaemon

/// A lift-status round's bytes decoded in one place (`FacilitiesLoad`, through `CacheLoader`):
/// the round's inventory when it brought one that decodes, else the last good load's, and why.
@Suite struct FacilitiesLoadTests {
    static let statuses = Array(#"{"ElevatorIncidents":[{"UnitName":"A01N01","UnitType":"ELEVATOR","StationCode":"A01"}]}"#.utf8)

    static func load(_ inventory: CompanionFetch?, previous: FacilitiesLoad? = nil) throws -> FacilitiesLoad {
        let input = CacheLoader.Input(body: statuses, companion: inventory, source: try FileSource(url: "file:///dev/null"), reading: FeedReading(),
                                      zones: .cta, local: .notKnown, previous: previous)
        guard case .facilities(let load) = try CacheLoader(.facilities).decode(input) else { throw TestFailure("not a lift-status load") }
        return load
    }

    static let csv = Fixtures.bytes("facilities/inventory.HANDMADE.csv")

    @Test func aNewInventoryIsDecodedBesideTheStatuses() throws {
        let load = try Self.load(.body(Self.csv))
        #expect(load.feed.units.map(\.unitID) == ["A01N01"])
        #expect(load.inventory.rows(for: "EL318").map(\.stopIDs) == [["A41"], ["R29"]])
        #expect(load.inventoryKept == nil && load.inventoryNotices.count == 2, "the CSV's two unusable rows are notices")
        #expect(try Self.load(nil).inventory == .empty, "no inventory URL: none")
    }

    @Test func theLastGoodInventoryStandsWhenTheRoundBringsNone() throws {
        let good = try Self.load(.body(Self.csv))
        let unchanged = try Self.load(.unchanged, previous: good)
        #expect(unchanged.inventory == good.inventory && unchanged.inventoryKept == nil && unchanged.notices.count == good.notices.count)
        let failed = try Self.load(.failed(FetchFailure("inventory http://x/: HTTP 503")), previous: good)
        #expect(failed.inventory == good.inventory && failed.inventoryKept?.message == "inventory http://x/: HTTP 503")
        let garbled = try Self.load(.body(Array("<html>".utf8)), previous: good)
        #expect(garbled.inventory == good.inventory)
        #expect(garbled.inventoryKept?.message.hasPrefix("the inventory did not decode: ") == true, "\(String(describing: garbled.inventoryKept))")
    }

    @Test func withoutAGoodInventoryTheRoundFails() throws {
        #expect(throws: FetchFailure.self) { try Self.load(.unchanged) }
        #expect(throws: FetchFailure.self) { try Self.load(.body(Array("<html>".utf8))) }
        #expect(throws: FetchFailure("inventory http://x/: HTTP 503")) { try Self.load(.failed(FetchFailure("inventory http://x/: HTTP 503"))) }
    }
}
