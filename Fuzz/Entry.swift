import Glibc
@testable import StopSheetCore
@testable import StopSheetDaemon
@testable import StopSheetProtocol

/// The one fuzz target run, chosen by `STOPSHEET_FUZZ_TARGET` when the fuzzer starts.
private let selectedTarget: @Sendable (UnsafePointer<UInt8>?, Int) -> Int32 = {
    let name = getenv("STOPSHEET_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    switch name {
    case "request-line": return requestLineFuzzTarget
    case "alerts": return alertsFuzzTarget
    case "stations": return stationsFuzzTarget
    case "gtfs-realtime": return gtfsRealtimeFuzzTarget
    case "gtfs-csv": return gtfsCSVFuzzTarget
    default: fatalError("STOPSHEET_FUZZ_TARGET must be request-line, alerts, stations, gtfs-realtime or gtfs-csv, not '\(name)'")
    }
}()

/// libFuzzer's entry point. One binary holds every target, so scripts/fuzz.sh links the sources
/// under test (the whole daemon, from the AddressSanitizer build) once instead of once per target.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    selectedTarget(data, size)
}
