import StopSheetCore
import Testing

/// The matches of a pathway's id, all in `Pathway`: an inventory row's `pathway_id`, and TfL's
/// lift pathways `<from>-<to>-lift-<LiftUniqueId>` (ids as in TfL's published GTFS).
@Suite struct PathwayTests {
    static func pathway(_ id: String) -> Pathway {
        Pathway(id: id, fromStopID: "a", toStopID: "b", mode: .elevator, isBidirectional: true)
    }

    @Test func anInventoryRowNamesThePathwayByItsID() {
        let lift = Self.pathway("EL1_A03")
        #expect(lift.isNamed(by: .init(unitID: "A03N04", pathwayID: "EL1_A03")))
        #expect(!lift.isNamed(by: .init(unitID: "A03N04", pathwayID: "EL1_A0")))
        #expect(!lift.isNamed(by: .init(unitID: "EL1_A03", stopIDs: ["A03"])))
    }

    @Test func aTfLLiftPathwayEndsInLiftAndTheLiftsID() {
        let lift = Self.pathway("9400ZZLUGPK-PLT1-9400ZZLUGPK-TKT-lift-LUGPK-L1")
        #expect(lift.isTfLLift("LUGPK-L1"))
        #expect(!lift.isTfLLift("LUGPK-L"))
        #expect(!lift.isTfLLift("L1"))
        #expect(!Self.pathway("LUGPK-L1").isTfLLift("LUGPK-L1"))
    }
}
