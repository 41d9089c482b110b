import Testing
@testable import StopSheetCore

/// The deployer's station table (`--facilities-stations-url`), HANDMADE rows in the format the
/// issue gives: `station_ref,stop_id`, any order and case, other columns ignored.
@Suite struct FacilityStationTableDecoderTests {
    @Test func readsTheRowsAndSkipsEmptyFields() throws {
        let body = "\u{FEFF}Stop_ID,name,STATION_REF\r\nde:11000:900003201,Berlin Hbf,1071\r\nde:11000:900003200,Berlin Hbf (tief),1071\r\n,nothing,1072\r\nde:1,,\r\n"
        let (table, notices) = try FacilityStationTableDecoder.decode(Array(body.utf8))
        #expect(table.stopIDs(for: "1071") == ["de:11000:900003201", "de:11000:900003200"])
        #expect(table.stopIDs(for: "1072").isEmpty && table.rows.map(\.line) == [2, 3])
        #expect(notices.count == 2 && notices.first.map(\.problem) == ["'1072': stop_id is empty; skipped", "station_ref is empty; skipped"])
    }

    @Test func refusesABodyWithoutTheColumns() {
        #expect(throws: DecodingFailure.self) { try FacilityStationTableDecoder.decode(Array("facility_id,stop_id\nA,B\n".utf8)) }
        #expect(throws: DecodingFailure.self) { try FacilityStationTableDecoder.decode([]) }
    }
}
