import StopSheetCore
import Testing
@testable import StopSheetDaemon

/// The placement line a lift-status or stations load logs (`facility_placement`): a notice, which
/// the default level shows, only while some unit is not placed (the deployer has mapping to do);
/// info otherwise, so a healthy daemon stays quiet.
@Suite struct FacilityPlacementLogTests {
    /// Counts as `Snapshot.facilityCounts` gives them: every kind present, zeros included.
    static func counts(placed: Int = 0, offTheMap: Int = 0, ambiguous: Int = 0, unplaced: Int = 0) -> [FacilityPlacement.Count: Int] {
        [.placed: placed, .offTheMap: offTheMap, .ambiguous: ambiguous, .unplaced: unplaced]
    }

    @Test func aNoticeOnlyWhileSomeUnitIsNotPlaced() {
        #expect(Refresher.placementLevel(Self.counts(placed: 12)) == .info, "every unit placed")
        #expect(Refresher.placementLevel(Self.counts()) == .info, "no units at all")
        #expect(Refresher.placementLevel(Self.counts(placed: 12, offTheMap: 1)) == .notice)
        #expect(Refresher.placementLevel(Self.counts(placed: 12, ambiguous: 1)) == .notice)
        #expect(Refresher.placementLevel(Self.counts(unplaced: 2)) == .notice)
        // The default level shows the one and hides the other.
        #expect(LogLevel.notice >= Config().logLevel && LogLevel.info < Config().logLevel)
    }
}
