import Glibc
@testable import StopSheetCore
@testable import StopSheetDaemon
@testable import StopSheetProtocol

/// A fuzz target: its function, and the fixtures it reads decoded before the first input.
private struct FuzzTarget: Sendable {
    let run: @Sendable (UnsafePointer<UInt8>?, Int) -> Int32
    var warm: @Sendable () -> Void = {}
}

/// The one fuzz target run, chosen by `STOPSHEET_FUZZ_TARGET` when the fuzzer starts.
private let selected: FuzzTarget = {
    let name = getenv("STOPSHEET_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    switch name {
    case "request-line": return FuzzTarget(run: requestLineFuzzTarget)
    case "alerts": return FuzzTarget(run: alertsFuzzTarget)
    case "stations": return FuzzTarget(run: stationsFuzzTarget)
    case "gtfs-realtime": return FuzzTarget(run: gtfsRealtimeFuzzTarget)
    case "gtfs-csv": return FuzzTarget(run: gtfsCSVFuzzTarget)
    case "facilities": return FuzzTarget(run: facilitiesFuzzTarget) { _ = (RealTopology.all, FuzzFixtures.liftStations) }
    case "facilities-inventory":
        return FuzzTarget(run: facilitiesInventoryFuzzTarget) { _ = (RealTopology.all, FuzzFixtures.liftStations, FuzzFixtures.liftStatuses) }
    case "gtfs-zip": return FuzzTarget(run: gtfsZipFuzzTarget) { _ = FuzzFixtures.alerts }
    case "gtfs-pathways": return FuzzTarget(run: gtfsPathwaysFuzzTarget) { _ = RealTopology.all }
    default:
        fatalError("STOPSHEET_FUZZ_TARGET must be request-line, alerts, stations, gtfs-realtime, gtfs-csv, facilities, "
                   + "facilities-inventory, gtfs-zip or gtfs-pathways, not '\(name)'")
    }
}()

/// libFuzzer's start-up hook: the real topologies take seconds to decode in the sanitized build,
/// which must not count against the first input's `-timeout`.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutablePointer<Int32>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> Int32 {
    selected.warm()
    return 0
}

/// libFuzzer's entry point. One binary holds every target, so scripts/fuzz.sh links the sources
/// under test (the whole daemon, from the AddressSanitizer build) once instead of once per target.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    selected.run(data, size)
}
