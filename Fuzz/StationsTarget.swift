@testable import StopSheetCore
@testable import StopSheetDaemon
@testable import StopSheetProtocol

/// Fuzz target (see Entry.swift): a stations upstream body ('L' stops CSV or JSON, or the app API), decoded
/// as the refresher does, then built into a snapshot with the real alerts and rendered.
public func stationsFuzzTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let body = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let platforms = try StationsDecoder.decode(body, limits: DecodingLimits(maxDepth: 64, maxItems: 500))
        let directory = StationDirectory(platforms: platforms)
        let snapshot = Snapshot.build(stations: directory, alerts: FuzzFixtures.alerts, now: FuzzFixtures.capturedAt)
        let decodedIDs = platforms.prefix(8).flatMap { [$0.stopID, $0.stationID] }
        renderSamples(snapshot, extraStopIDs: decodedIDs)
        for id in decodedIDs {
            if let station = directory.station(for: id) {
                let now = snapshot.stopSheet(for: station).accessibilityButton.now
                requireJSON(PreEncoded(station.detail(advisories: [], now: now, in: FuzzFixtures.zones.chicago)).bytes, "station \(id)")
            }
        }
    } catch {
        precondition(!error.description.isEmpty, "a failure must say why")
    }
    return 0
}
