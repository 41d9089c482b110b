import StopSheetCore
import Testing

/// The one list of kind words (`FacilityKind`), as each reader uses it: a feed's class word, an
/// alert's headline, a unit's description read for the place it names.
@Suite struct FacilityKindTests {
    @Test func aFeedWordNamesItsKindCaseAside() {
        for word in ["lift", "LIFT", "Elevator", "ELEVATOR", "elevators", "lifts"] { #expect(FacilityKind(feedWord: word) == .elevator, "\(word)") }
        for word in ["escalator", "ESCALATOR", "Escalators"] { #expect(FacilityKind(feedWord: word) == .escalator, "\(word)") }
        for word in ["ramp", "stairLift", "travelator", "", "unit"] { #expect(FacilityKind(feedWord: word) == .other, "\(word)") }
        #expect(FacilityKind(feedWord: nil) == .other)
    }

    /// "Lift" names a unit in a description but is not read in an alert's headline.
    @Test func anAlertHeadlineNamesElevatorsAndEscalatorsNotLifts() {
        #expect(FacilityKind.elevator.words == ["elevator", "elevators"])
        #expect(FacilityKind.escalator.words == ["escalator", "escalators"])
        #expect(FacilityKind.other.words.isEmpty)
        #expect(FacilityKind.unitWords.isSuperset(of: FacilityKind.liftWords))
    }

    @Test func aDescriptionsUnitWordsAreNoPlace() {
        #expect(FacilityLevels.levels("Street lift") == ["street"])
        #expect(FacilityLevels.levels("Garage escalators") == ["garage"])
        #expect(FacilityLevels.levels("Bike trail elevator unit") == ["bike trail"])
        #expect(FacilityLevels.levels("Lift") == [])
    }
}
