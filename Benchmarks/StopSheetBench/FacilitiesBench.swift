import Glibc

import StopSheetCore
import StopSheetDaemon
import ZoneInfo

/// `facilities --conditions 4000 --out FILE [--repeat 9]`: a SIRI-FM body of that many
/// `FacilityCondition`s, in the shape Germany's station operator publishes (a `FacilityRef` and a
/// status each, every fourth with a whole `Facility`, its location, a described outage with an
/// entity and a validity period), written to FILE for the peer (Python's ElementTree), then
/// decoded as the daemon decodes a `--facilities-url` body (`FacilitiesBody`: libxml2, then the
/// statuses) `repeat` times. Prints the median and fastest decode.
func runFacilitiesBench(_ options: Options) {
    let count = options.int("conditions", 4000), repeats = options.int("repeat", 9)
    let statuses = ["available", "notAvailable", "available", "partiallyAvailable", "available", "unknown"]
    var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
    xml += #"<Siri xmlns="http://www.siri.org.uk/siri" version="2.0"><ServiceDelivery>"#
    xml += "<ResponseTimestamp>2026-09-17T08:00:00+02:00</ResponseTimestamp><ProducerRef>STATIONS</ProducerRef>"
    xml += #"<FacilityMonitoringDelivery version="2.0"><ResponseTimestamp>2026-09-17T08:00:00+02:00</ResponseTimestamp>"#
    for index in 0..<count {
        let status = statuses[index % statuses.count]
        xml += "\n<FacilityCondition>"
        if index % 4 == 0 {
            xml += "<Facility><FacilityCode>ELEV-\(index)</FacilityCode><Description>Lift street to platform \(index % 12)</Description>"
            xml += "<FacilityClass>lift</FacilityClass><FacilityLocation><StopPlaceRef>S\(index / 8)</StopPlaceRef></FacilityLocation></Facility>"
        } else {
            xml += "<FacilityRef>diid:0a1b2c3d-0000-4000-8000-\(String(repeating: "0", count: 12 - String(index).count))\(index)</FacilityRef>"
        }
        xml += "<FacilityStatus><Status>\(status)</Status>"
        if status != "available" { xml += #"<Description xml:lang="de">Aufzug zu Gleis \#(index % 9) &amp; \#(index % 9 + 1) außer Betrieb</Description>"# }
        xml += "</FacilityStatus>"
        if status == "notAvailable" {
            xml += "<ValidityPeriod><StartTime>2026-09-16T22:15:00+02:00</StartTime><EndTime>2026-09-18T12:00:00+02:00</EndTime></ValidityPeriod>"
        }
        xml += "</FacilityCondition>"
    }
    xml += "\n</FacilityMonitoringDelivery></ServiceDelivery></Siri>\n"
    let bytes = Array(xml.utf8)
    let out = options.string("out")
    guard let file = fopen(out, "w") else { fail("cannot write \(out)") }
    _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
    fclose(file)

    let berlin: TimeZoneRules
    do { berlin = try TimeZoneDatabase.rules("Europe/Berlin") } catch { fail("no zone: \(error)") }
    var times: [Double] = []
    var units = 0
    for _ in 0..<repeats {
        let started = monotonicNanos()
        do { units = try FacilitiesBody.decode(bytes, local: berlin).statuses.count } catch { fail("decode failed: \(error)") }
        times.append(Double(monotonicNanos() - started) / 1e6)
    }
    times.sort()
    print("facilities: conditions=\(count) bytes=\(bytes.count) units=\(units) decode_ms=\(format3(times[times.count / 2])) fastest_ms=\(format3(times[0]))")
}

/// Milliseconds to three decimals, without Foundation.
private func format3(_ value: Double) -> String {
    let thousandths = Int((value * 1000).rounded())
    let fraction = String(thousandths % 1000)
    return "\(thousandths / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
}
