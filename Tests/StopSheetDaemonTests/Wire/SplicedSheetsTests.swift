import Testing
import StopSheetCore
import StopSheetProtocol
import StopSheetTestSupport
@testable import StopSheetDaemon

/// The splice cache holds a sheet completed with one `data`: it must splice again whenever any
/// part of that `data` differs, not only its ages and staleness, or a sheet is served with a
/// `data` of another moment, silently.
@Suite struct SplicedSheetsTests {
    private let now = CTATime.instant("2015-02-14T14:35:00", in: TestZones.chicago)!

    private func snapshot() throws -> EncodedSnapshot {
        let alerts = try AlertsDecoder.decode(Fixtures.bytes("alerts_2015-02-14.DERIVED.json"), chicago: TestZones.chicago)
        let directory = StationDirectory(platforms: try StationsDecoder.decode(Fixtures.bytes("L_stops_2021.csv")))
        return EncodedSnapshot(Snapshot.build(stations: directory, alerts: alerts, now: now), zone: TestZones.chicago)
    }

    /// A `data` whose alerts were loaded 30 s before `now` and made `producedAgo` before it.
    private func data(producedAgo: Int64, configured: Bool = true) -> SheetData {
        let alerts = DataFreshness(lastGoodLoad: now.adding(seconds: -30), producedAt: now.adding(seconds: -producedAgo), now: now, staleAfterSeconds: 300,
                                   configured: configured)
        let stations = DataFreshness(lastGoodLoad: now.adding(seconds: -30), now: now, staleAfterSeconds: 300)
        return SheetData(alerts: alerts, stations: stations, facilities: DataFreshness(lastGoodLoad: nil, now: now, staleAfterSeconds: 300, configured: false),
                         zone: TestZones.chicago)
    }

    @Test func aDataOfTheSameAgeButAnotherTimeOfMakingIsSplicedAgain() throws {
        let snapshot = try snapshot()
        let spliced = SplicedSheets()
        // Same age, same staleness: only `producedAt` (then `configured`) tells them apart.
        let datas = [data(producedAgo: 40), data(producedAgo: 50), data(producedAgo: 50, configured: false)]
        #expect(Set(datas.map { $0.encoded.bytes }).count == datas.count, "three different data members")
        for index in [0, snapshot.stationCount - 1] {
            for data in datas + datas.reversed() {
                let served = spliced.sheet(at: index, of: snapshot, data: data)
                #expect(served == PreEncoded(snapshot.stopSheet(at: index), data: data.encoded), "station at \(index)")
                #expect(spliced.encodedData(data, of: snapshot) == data.encoded)
            }
        }
    }

}
