@testable import StopSheetCore
@testable import StopSheetDaemon
@testable import StopSheetProtocol

/// Fuzz target (see Entry.swift): an alerts upstream body (CTA Customer Alerts JSON or the app API), decoded
/// as the refresher does, then built into a snapshot with the real stations and rendered.
public func alertsFuzzTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let body = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        // A small item cap so the fuzzer reaches it with inputs it can afford to mutate.
        let alerts = try AlertsDecoder.decode(body, chicago: FuzzFixtures.zones.chicago, limits: DecodingLimits(maxDepth: 64, maxItems: 500))
        renderSamples(Snapshot.build(stations: FuzzFixtures.stations, alerts: alerts, now: FuzzFixtures.capturedAt))
    } catch {
        precondition(!error.description.isEmpty, "a failure must say why")
    }
    return 0
}
