import Testing
@testable import StopSheetCore

/// An elevator alert placed by its words (issue 50): a pathway's `signposted_as` or
/// `reversed_signposted_as` held in the alert's headline or description, folded (case aside, a
/// hyphen a space, spaces collapsed) and as whole words; of two nested phrases only the longer;
/// the numbers and named nodes first.
@Suite struct OutagePhraseTests {
    static let loop = Pathway(id: "E1", fromStopID: "N", toStopID: "P1", mode: .elevator, isBidirectional: true,
                              signpostedAs: "Loop-bound platform elevator", reversedSignpostedAs: "elevator to street")

    @Test(arguments: [("The Loop-bound platform elevator at Western is out.", true), ("The Loop- bound  platform elevator", true),
                      ("the LOOP BOUND PLATFORM ELEVATOR", true), ("Loop-bound platform elevators are out", false),
                      ("The Kimball-bound platform elevator", false), ("the elevator to/from street", false), ("take the elevator to street level", true)])
    func aPhraseIsHeldAsWholeWordsWhateverTheHyphens(text: String, named: Bool) {
        #expect(!Self.loop.phrasesNamed(in: AlertWords.words(text)).isEmpty == named, "\(text)")
    }

    /// Two elevators signposted `platform elevator` and `Inner Loop platform elevator`, a third
    /// numbered 7: an alert holding the longer phrase takes out that one alone, the shorter its
    /// own, a number wins over words, and words naming none leave every elevator a candidate.
    @Test func theLongerPhraseWinsAndNumbersComeFirst() throws {
        let feed = StepFreeNowTests.Feed(stops: ["E,2,S,1", "N,3,S", "P1,0,S", "P2,0,S", "P3,0,S"],
                                         pathways: ["W,E,N,1,1", "L1,N,P1,5,1,platform elevator", "L2,N,P2,5,1,Inner Loop platform elevator",
                                                    "L3,N,P3,5,1,,7"])
        let topology = try feed.topology()
        func placed(_ headline: String, _ description: String = "") -> (ids: [String], rule: OutagePlacementRule?) {
            let alert = Alert(id: "a", kindSource: .fromTime, headline: headline, description: description, scopes: [.station("S")], details: .init())
            guard let outage = AlertOutage(alert), let found = FacilityPlacement.place(outage, on: topology) else { return ([], nil) }
            return (found.placement.pathways.map { topology.pathways[$0].id }, found.placedBy)
        }
        let inner = placed("Elevator at Central Temporarily Out-of-Service", "The Inner Loop platform elevator at Central is out of service.")
        #expect(inner.ids == ["L2"] && inner.rule == .phrase)
        #expect(placed("The platform elevator at Central is out of service").ids == ["L1"])
        #expect(placed("Elevator 7 out of service", "The Inner Loop platform elevator").ids == ["L3"])
        #expect(placed("Elevator 7 out of service").rule == .id)
        let vague = placed("The elevator at Central is out of service")
        #expect(vague.ids.isEmpty && vague.rule == nil)
        let now = try feed.now([Alert(id: "a", kindSource: .fromTime, headline: "Elevator out of service",
                                      description: "The Inner Loop platform elevator", scopes: [.station("S")], details: .init())])
        #expect(now.outages.map(\.placedBy) == [.phrase] && now.stepFree == .partial)
        #expect(now.platforms.map { [$0.entry, $0.exit] } == [[true, true], [false, false], [true, true]])
    }
}
