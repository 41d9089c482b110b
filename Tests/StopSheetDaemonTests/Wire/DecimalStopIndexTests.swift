import Testing
import StopSheetCore
@testable import StopSheetDaemon

/// The byte lookup the request path uses must agree with `index(for:)` for every id it answers,
/// and answer every known decimal id.
@Suite struct DecimalStopIndexTests {
    private let directory = StationDirectory(platforms: try! StationsDecoder.decode(Fixtures.bytes("L_stops_2021.csv")))

    /// The index is built once per directory, as the daemon builds it once per snapshot: built per
    /// lookup, 20,000 lookups took 12 s of CPU in a debug build.
    private func byBytes(_ id: String, in index: DecimalStopIndex) -> Int? {
        Array(id.utf8).withUnsafeBytes { index.index(of: $0) }
    }

    @Test func everyRealStationAndPlatformIdIsFoundAtItsStation() {
        var checked = 0
        let index = DecimalStopIndex(directory)
        for station in directory.stations {
            for id in [station.id] + station.platforms.map(\.stopID) {
                #expect(byBytes(id, in: index) == directory.index(for: id), "\(id)")
                checked += 1
            }
        }
        #expect(checked > 400)
    }

    @Test func otherIdsAreNeverMisread() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("0123456789 -+ax".utf8)
        var candidates = ["", "0", "00", "040380", "40380 ", " 40380", "+40380", "-40380", "4038O", "999999999999999999",
                          "1000000000000000000", "18446744073709551616", "99999999999999999999",
                          // The bytes just past the digits, read as digits 10 and 255: "4037:" would be 40380.
                          "4037:", "4038/", ":", "/"]
        for _ in 0..<20_000 {
            let length = Int.random(in: 1...6, using: &generator)
            candidates.append(String(decoding: (0..<length).map { _ in alphabet.randomElement(using: &generator)! }, as: UTF8.self))
        }
        for station in directory.stations.prefix(20) { candidates.append("0" + station.id) }
        let index = DecimalStopIndex(directory)
        for id in candidates {
            if let found = byBytes(id, in: index) {
                #expect(found == directory.index(for: id), "\(id)")
            } else {
                // Declined only for unknown ids and ids that are not canonical decimals.
                let canonical = id.utf8.count <= 18 && UInt64(id).map(String.init) == id
                #expect(directory.index(for: id) == nil || !canonical, "\(id)")
            }
        }
    }

    @Test func aStationIdThatIsAlsoAPlatformIdResolvesAsIndexForDoes() {
        let platforms = [
            Platform(stopID: "30001", stationID: "40001", stationName: "A", routes: [.red], stepFree: true),
            Platform(stopID: "40001", stationID: "40002", stationName: "B", routes: [.red], stepFree: true),
            Platform(stopID: "0", stationID: "7", stationName: "C", routes: [.red], stepFree: true),
        ]
        let directory = StationDirectory(platforms: platforms)
        let index = DecimalStopIndex(directory)
        for id in ["30001", "40001", "40002", "0", "7", "00", "07"] {
            #expect(byBytes(id, in: index) == directory.index(for: id), "\(id)")
        }
    }

    /// 18 digits are the most a `UInt64` always holds: an 18-digit id is found from its bytes,
    /// a longer one is declined (and found by `index(for:)`, as `EncodedSnapshot.stationIndex` does).
    @Test func idsOfUpTo18DigitsAreIndexedAndLongerOnesDeclined() {
        let longest = String(repeating: "9", count: 18), tooLong = "1" + String(repeating: "0", count: 18)
        let directory = StationDirectory(platforms: [
            Platform(stopID: longest, stationID: "1", stationName: "A", routes: [.red], stepFree: true),
            Platform(stopID: tooLong, stationID: "2", stationName: "B", routes: [.red], stepFree: true),
        ])
        let index = DecimalStopIndex(directory)
        #expect(byBytes(longest, in: index) == directory.index(for: longest))
        #expect(byBytes(longest, in: index) != nil)
        #expect(byBytes(tooLong, in: index) == nil)
        #expect(directory.index(for: tooLong) != nil)
        let snapshot = EncodedSnapshot(Snapshot.build(stations: directory, alerts: [], now: Instant(secondsSince1970: 0)), zone: .utc)
        #expect(snapshot.stationIndex(stopID: tooLong) == directory.index(for: tooLong))
    }

    /// A snapshot of the same stations load takes the index of the one it replaces; one of a new
    /// load is indexed afresh, so an id moved to another station, or gone, is found where it is now.
    @Test func aNewStationsLoadIsIndexedAfresh() {
        let first = StationDirectory(platforms: [Platform(stopID: "30001", stationID: "40001", stationName: "A", routes: [.red], stepFree: true)])
        let second = StationDirectory(platforms: [
            Platform(stopID: "30002", stationID: "40002", stationName: "B", routes: [.red], stepFree: true),
            Platform(stopID: "30001", stationID: "40003", stationName: "C", routes: [.red], stepFree: true),
        ])
        let at = Instant(secondsSince1970: 0)
        let loaded = EncodedSnapshot(Snapshot.build(stations: first, alerts: [], now: at), zone: .utc)
        let refreshed = EncodedSnapshot(Snapshot.build(stations: first, alerts: [], now: at), zone: .utc, previous: loaded)
        let reloaded = EncodedSnapshot(Snapshot.build(stations: second, alerts: [], now: at), zone: .utc, previous: refreshed)
        for id in ["30001", "40001", "30002", "40002", "40003"] {
            #expect(refreshed.stationIndex(stopID: id) == first.index(for: id), "\(id)")
            #expect(reloaded.stationIndex(stopID: id) == second.index(for: id), "\(id)")
        }
    }
}
