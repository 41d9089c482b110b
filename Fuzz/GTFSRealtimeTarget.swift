@testable import StopSheetCore
@testable import StopSheetDaemon
@testable import StopSheetProtocol

/// Fuzz target (see Entry.swift): a body decoded as a GTFS-realtime FeedMessage (whether or not detection
/// would call it one), then built into a snapshot with the real stations and rendered. Beyond
/// "no crash": a decoded alert has an id and a train scope, and its kind follows its periods.
public func gtfsRealtimeFuzzTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let body = Array(UnsafeBufferPointer(start: data, count: size))
    _ = GTFSRealtimeAlertsDecoder.isFeedMessage(body)
    do {
        // A small item cap and depth so the fuzzer reaches both with inputs it can afford.
        let alerts = try GTFSRealtimeAlertsDecoder.decode(body, limits: DecodingLimits(maxDepth: 8, maxItems: 500))
        for alert in alerts {
            precondition(!alert.id.isEmpty && !alert.scopes.isEmpty, "an alert without an id or a train scope")
            if case .periods(let periods) = alert.kindSource {
                for period in periods {
                    guard let start = period.start, period.end.map({ start < $0 }) ?? true else { continue }
                    precondition(alert.kind(at: start) == .active, "inside a period is active")
                }
            }
        }
        renderSamples(Snapshot.build(stations: FuzzFixtures.stations, alerts: alerts, now: FuzzFixtures.capturedAt))
    } catch {
        precondition(!error.description.isEmpty, "a failure must say why")
    }
    return 0
}
