import Foundation
import StopSheetCore
import Testing

/// Lift status (`--facilities-url`) through the real binaries and a local HTTP upstream: each
/// format the publishers document (the hand-made fixtures of Tests/Fixtures/facilities, in those
/// formats) changing a station's step-free verdict, pushed to a `stopsheetctl watch`; stale status
/// counting as unknown; hostile XML refused with the last good data kept. Each change is made
/// visible with a `refresh` that answers when done.
@Suite(.serialized) struct FacilitiesIntegrationTests {
    let upstream: Upstream
    static let stations = "file://\(Fixtures.directory)/facilities/gtfs"
    static let pad = String(repeating: " ", count: 10)

    init() throws { upstream = try Upstream.shared() }

    func key(_ name: String = #function) -> String { "\(name.prefix { $0 != "(" })-\(getpid())-\(UInt32.random(in: 0...UInt32.max))" }

    static func fixture(_ name: String) throws -> String {
        try String(contentsOfFile: Fixtures.path("facilities/\(name)"), encoding: .utf8)
    }

    /// STATUS= once the stations and the lift status have loaded.
    static func loaded(_ status: String) -> Bool {
        status.hasPrefix("serving ") && !status.hasPrefix("serving no ") && status.contains(" lift statuses") && !status.contains("no lift statuses")
    }

    /// The SIRI-FM fixture's `ResponseTimestamp` and a minute: the feed says when it was made,
    /// and a feed made long before now is stale (every unit unknown).
    static let siriNow = ["--now", "2026-09-17T08:01:00+02:00"]

    func daemon(_ url: String, _ extra: [String] = []) throws -> DaemonProcess {
        try DaemonProcess(["--stations-url", Self.stations, "--facilities-url", url] + extra, until: Self.loaded)
    }

    func refresh(_ daemon: DaemonProcess) throws -> JSON {
        try #require(try daemon.result("refresh", ["what": "facilities"])["facilities"])
    }

    static func now(_ daemon: DaemonProcess, _ stopID: String) throws -> JSON? {
        try daemon.result("stopSheet", ["stopId": .string(stopID)])["accessibilityButton"]?["now"]
    }

    static func access(_ now: JSON?) -> [[JSON?]] {
        now?["platforms"]?.arrayValue?.map { [$0["entry"], $0["exit"]] } ?? []
    }

    static func ctl(_ daemon: DaemonProcess, _ arguments: [String]) throws -> String {
        try StopSheetCtlIntegrationTests.ctl(["--socket", daemon.socketPath] + arguments, columns: 250).stdout
    }

    /// WMATA's `ElevatorIncidents`: the elevator "between street and mezzanine" of Dupont Circle
    /// is placed by its station code and its two levels, goes out and comes back, and a
    /// subscriber hears both.
    @Test func wmataIncidentsGoOutAndComeBackWithPush() throws {
        let key = key()
        let none = #"{"ElevatorIncidents":[]}"#
        try upstream.set(key: key, body: none)
        let daemon = try daemon(upstream.url("/dyn/\(key)"), ["--log-level", "info"])
        defer { _ = daemon.stop() }
        #expect(try Self.now(daemon, "STN_A03")?["stepFree"] == "available")
        let watch = try WatchProcess(socket: daemon.socketPath, ["STN_A03"], environment: ["COLUMNS": "250"])
        var seen: [String] = []
        func next() -> String? {
            let line = watch.output.next(timeout: patience)
            if let line { seen.append(line) }
            return line
        }
        #expect(next()?.hasSuffix("Dupont Circle (STN_A03): train alerts not configured · step-free access") == true, "\(seen)")
        #expect(next() == Self.pad + "Train alert data is not configured: the daemon has no source for it.", "\(seen)")

        try upstream.set(key: key, body: try Self.fixture("wmata_elevator_incidents.HANDMADE.json"))
        let loaded = try refresh(daemon)
        #expect(loaded["loaded"] == true && loaded["lastError"] == .null, "\(loaded.encodedString)")
        // The row without UnitName is a notice; the other two load.
        #expect(loaded["count"] == 2)
        #expect(loaded["notices"]?["count"] == 1, "\(loaded.encodedString)")
        #expect(next()?.hasSuffix("Dupont Circle (STN_A03): train alerts not configured · step-free access") == true, "\(seen)")
        #expect(next() == Self.pad + "step-free now: available → none", "\(seen)")
        #expect(next() == Self.pad + "Dupont Circle platform: lost step-free entry and exit (Elevator A03N04 out)", "\(seen)")
        let out = try Self.now(daemon, "STN_A03")
        #expect(out?["stepFree"] == "none" && out?["complete"] == true)
        #expect(Self.access(out) == [[false, false]])
        let elevator = out?["outages"]?.arrayValue?.first
        #expect(elevator == ["alertId": "", "facility": "elevator", "facilityId": "A03N04", "pathways": ["EL1_A03"], "source": "facilities",
                             "status": "notAvailable", "since": "2026-09-10T05:30:00-04:00", "expectedBack": "2026-10-31T23:59:59-04:00",
                             "description": "Elevator between street and mezzanine (Q Street side): Modernization"], "\(out?.encodedString ?? "")")
        #expect(out?["outages"]?.arrayValue?.map { $0["facility"] } == ["elevator", "escalator"])
        let sheet = try Self.ctl(daemon, ["sheet", "STN_A03"])
        #expect(sheet.contains("Step-free now: none (from the station's pathways)"), "\(sheet)")
        #expect(sheet.contains("Elevator A03N04 out: Elevator between street and mezzanine (Q Street side): Modernization; since Thu 10 Sep 2026 05:30, expected back Sat 31 Oct 2026 23:59"), "\(sheet)")
        let station = try Self.ctl(daemon, ["station", "STN_A03"])
        #expect(station.contains("Elevator A03N04 out: Elevator between street and mezzanine"), "\(station)")
        let listing = try Self.ctl(daemon, ["facilities", "STN_A03"])
        #expect(listing.contains("Dupont Circle (STN_A03)"), "\(listing)")
        #expect(listing.contains("Elevator A03N04 out: Elevator between street and mezzanine (Q Street side): Modernization; since Thu 10 Sep 2026 05:30, expected back Sat 31 Oct 2026 23:59 (pathways EL1_A03, by its levels)"), "\(listing)")
        #expect(listing.contains("Escalator A03N04 out: Escalator between mezzanine and platform: Service Call; since Wed 16 Sep 2026 14:05 (on no pathway: it matches no pathway)"), "\(listing)")

        // The same body again: a conditional GET, answered 304, keeps the data.
        let again = try refresh(daemon)
        #expect(again["lastHTTPStatus"] == 304 && again["count"] == 2, "\(again.encodedString)")

        // And comes back.
        try upstream.set(key: key, body: none)
        _ = try refresh(daemon)
        #expect(next()?.hasSuffix("Dupont Circle (STN_A03): train alerts not configured · step-free access") == true, "\(seen)")
        #expect(next() == Self.pad + "step-free now: none → available", "\(seen)")
        #expect(next() == Self.pad + "Dupont Circle platform: step-free entry and exit again", "\(seen)")

        let health = try daemon.result("health")
        #expect(health["facilities"]?["configured"] == true && health["facilities"]?["loaded"] == true)
        #expect(health["status"] == "ready")
        let refreshes = try daemon.result("stats")["refreshes"]?["facilities"]
        #expect(refreshes?["ok"]?.intValue ?? 0 >= 4 && refreshes?["failed"] == 0, "\(refreshes?.encodedString ?? "")")
        let sheetData = try daemon.result("stopSheet", ["stopId": "STN_A03"])["data"]?["facilities"]
        #expect(sheetData?["loaded"] == true && sheetData?["stale"] == false && sheetData?["configured"] == true)
        let log = daemon.stderrText()
        #expect(log.contains("facilities refreshed: 2 lift statuses"), "\(log.suffix(1500))")
        #expect(log.contains("facilities: 1 rows or values skipped"), "\(log.suffix(1500))")
    }

    /// A daemon on NYC Transit's ENE outages and their equipments inventory, and the inventory's key.
    func nyctWithTheInventory(_ name: String = #function) throws -> (DaemonProcess, String) {
        let (outages, inventory) = (key(name), key(name) + "-inventory")
        try upstream.set(key: outages, body: try Self.fixture("nyct_ene.HANDMADE.json"))
        try upstream.set(key: inventory, body: try Self.fixture("nyct_ene_equipments.HANDMADE.json"))
        let daemon = try daemon(upstream.url("/dyn/\(outages)"),
                                ["--facilities-inventory-url", upstream.url("/dyn/\(inventory)"), "--now", "2026-09-17T12:00:00-04:00"])
        return (daemon, inventory)
    }

    /// NYC Transit's ENE outages with the equipments inventory: NYC's GTFS has no pathways, so an
    /// outage of a unit the inventory marks ADA and not redundant may be on any platform's way:
    /// every platform's entry and exit unknown, the station `unknown` and incomplete, never
    /// "available" (issue 50); an upcoming outage counts from its start only.
    @Test func nyctOutagesWithTheInventory() throws {
        let (daemon, _) = try nyctWithTheInventory()
        defer { _ = daemon.stop() }
        for station in ["A41", "R29"] {
            let now = try Self.now(daemon, station)
            #expect(now?["basis"] == "stations" && now?["stepFree"] == "unknown" && now?["complete"] == false, "\(now?.encodedString ?? "")")
            #expect(Self.access(now) == [[.null, .null]])
            #expect(now?["outages"]?.arrayValue?.first?["facilityId"] == "EL318")
        }
        let units = try daemon.result("facilities", ["stopId": "A41"])
        #expect(units["stationId"] == "A41" && units["stale"] == false)
        #expect(units["units"]?.arrayValue?.map { [$0["unitId"], $0["status"]] } == [["EL318", "notAvailable"], ["EL319", "available"]],
                "the upcoming outage of 28 September does not count yet: \(units.encodedString)")
        #expect(units["units"]?.arrayValue?.first?["serving"] == "street to mezzanine for service in both directions")
        let listing = try Self.ctl(daemon, ["facilities"])
        #expect(listing.contains("Jay St-MetroTech (A41)") && listing.contains("Jay St-MetroTech (R29)"), "\(listing)")
        #expect(listing.contains("Elevator EL319 available"), "\(listing)")
        #expect(try daemon.result("health")["facilities"]?["count"] == 3)
    }

    /// An inventory body that does not decode, after one that did: the statuses load, joined to
    /// the inventory in force, and the journal says why it was kept.
    @Test func aGarbledInventoryKeepsTheLastGood() throws {
        let (daemon, inventory) = try nyctWithTheInventory()
        defer { _ = daemon.stop() }
        try upstream.set(key: inventory, body: "<html>502 Bad Gateway</html>")
        let refreshed = try refresh(daemon)
        #expect(refreshed["lastError"] == .null, "\(refreshed.encodedString)")
        #expect(daemon.waitForLog { $0.contains("keeping the last good inventory: the inventory did not decode") } != nil)
        let units = try daemon.result("facilities", ["stopId": "A41"])
        #expect(units["units"]?.arrayValue?.first?["serving"] == "street to mezzanine for service in both directions", "\(units.encodedString)")
    }

    /// The deployer's station table (`--facilities-stations-url`, issue 52), fetched over HTTP
    /// beside the statuses: a WMATA unit whose `StationCode` no station's id holds is at the
    /// station its table row names (`joinedBy` `table`), one whose code has no row is at none,
    /// with why; a row naming no station is a notice; `health.facilities.joined` counts them. A
    /// new table joins the units again at the next refresh, and one that does not decode is
    /// warned of, the last good one kept.
    @Test func theStationTableJoinsAFeedsOwnReferences() throws {
        let (statuses, table) = (key(), key() + "-stations")
        let incident = { (unit: String, code: String) in
            #"{"UnitName":"\#(unit)","UnitType":"ELEVATOR","StationCode":"\#(code)","LocationDescription":"Elevator between street and mezzanine","SymptomDescription":"Modernization","DateOutOfServ":"2026-09-10T05:30:00"}"#
        }
        try upstream.set(key: statuses, body: #"{"ElevatorIncidents":["# + incident("Z99X01", "Z99") + "," + incident("Z97X01", "Z97") + "]}")
        try upstream.set(key: table, body: "station_ref,stop_id\r\nZ99,PF_A03_C\r\nZ98,no-such-stop\r\n")
        let daemon = try daemon(upstream.url("/dyn/\(statuses)"), ["--facilities-stations-url", upstream.url("/dyn/\(table)"), "--log-level", "info"])
        defer { _ = daemon.stop() }
        let units = try #require(try daemon.result("facilities")["units"]?.arrayValue)
        #expect(units.map { [$0["unitId"], $0["stationId"], $0["joinedBy"]] } == [["Z99X01", "STN_A03", "table"], ["Z97X01", "", nil]],
                "\(units.map(\.encodedString))")
        #expect(units.last?["notJoined"] == "At no station: no station's id holds its station code 'Z97'; the station table has no row for its station reference 'Z97'; the feed gives no position for it.")
        #expect(units.allSatisfy { $0["distance"] == nil })
        #expect(try Self.now(daemon, "STN_A03")?["stepFree"] != "available")
        let listing = try Self.ctl(daemon, ["facilities"])
        #expect(listing.contains("at this station by the station table") && listing.contains("At no station: no station's id holds"), "\(listing)")
        let health = try #require(try daemon.result("health")["facilities"])
        #expect(health["joined"] == ["inventory": 0, "feed": 0, "stationCode": 0, "table": 1, "position": 0, "pathway": 0, "noStation": 1],
                "\(health.encodedString)")
        let notice = health["notices"]?["first"]?.arrayValue?.first
        #expect(health["notices"]?["count"] == 1 && notice?["file"] == "stations.csv" && notice?["line"] == 3, "\(health.encodedString)")
        // A new table: the unit moves with it.
        try upstream.set(key: table, body: "station_ref,stop_id\r\nZ97,STN_A03\r\n")
        #expect(try refresh(daemon)["lastError"] == .null)
        let moved = try #require(try daemon.result("facilities")["units"]?.arrayValue)
        #expect(moved.map { [$0["unitId"], $0["stationId"]] } == [["Z97X01", "STN_A03"], ["Z99X01", ""]], "\(moved.map(\.encodedString))")
        #expect(try daemon.result("health")["facilities"]?["notices"]?["count"] == 0)
        // One that does not decode: the last good kept, and said.
        try upstream.set(key: table, body: "<html>502 Bad Gateway</html>")
        #expect(try refresh(daemon)["lastError"] == .null)
        #expect(daemon.waitForLog { $0.contains("keeping the last good station table: the station table did not decode") } != nil)
        #expect(try daemon.result("facilities")["units"]?.arrayValue?.first?["unitId"] == "Z97X01")
    }

    /// SIRI-FM: a unit named by `FacilityCode` at a `StopPlaceRef`, placed by the pathway whose
    /// `facility_id` it is; `partiallyAvailable` is listed and changes nothing, `notAvailable`
    /// takes the way out, `unknown` leaves the platform undecided.
    @Test func siriFacilityMonitoringEachStatus() throws {
        let key = key()
        let fixture = try Self.fixture("siri_fm.HANDMADE.xml")
        try upstream.set(key: key, body: fixture)
        let daemon = try daemon(upstream.url("/dyn/\(key)"), Self.siriNow)
        defer { _ = daemon.stop() }
        let partly = try Self.now(daemon, "U1234")
        #expect(partly?["stepFree"] == "available" && Self.access(partly) == [[true, true]])
        #expect(partly?["outages"]?.arrayValue?.map { [$0["facilityId"], $0["status"], $0["pathways"]] } == [["ELEV-7", "partiallyAvailable", ["UEL"]]])
        let watch = try WatchProcess(socket: daemon.socketPath, ["U1234"], environment: ["COLUMNS": "250"])
        var seen: [String] = []
        func next() -> String? {
            let line = watch.output.next(timeout: patience)
            if let line { seen.append(line) }
            return line
        }
        #expect(next()?.contains("Hauptbahnhof (U1234)") == true, "\(seen)")
        #expect(next() == Self.pad + "Train alert data is not configured: the daemon has no source for it.", "\(seen)")

        try upstream.set(key: key, body: fixture.replacingOccurrences(of: "<Status>partiallyAvailable</Status>", with: "<Status>notAvailable</Status>"))
        _ = try refresh(daemon)
        #expect(next()?.contains("Hauptbahnhof (U1234)") == true, "\(seen)")
        #expect(next() == Self.pad + "step-free now: available → none", "\(seen)")
        #expect(next() == Self.pad + "Hauptbahnhof Gleis 1 platform: lost step-free entry and exit (Elevator ELEV-7 out)", "\(seen)")

        try upstream.set(key: key, body: fixture.replacingOccurrences(of: "<Status>partiallyAvailable</Status>", with: "<Status>unknown</Status>"))
        _ = try refresh(daemon)
        #expect(next()?.contains("Hauptbahnhof (U1234)") == true, "\(seen)")
        #expect(next() == Self.pad + "step-free now: none → unknown", "\(seen)")
        #expect(next() == Self.pad + "Hauptbahnhof Gleis 1 platform: step-free entry and exit unknown (Elevator ELEV-7 status unknown)", "\(seen)")
        let unknown = try Self.now(daemon, "U1234")
        #expect(unknown?["complete"] == false && Self.access(unknown) == [[.null, .null]])
    }

    /// Status older than --facilities-stale-after: every unit is unknown, so the platform the
    /// elevator serves is undecided; a good refresh makes it fresh again.
    @Test func staleStatusCountsAsUnknown() throws {
        let key = key()
        try upstream.set(key: key, body: try Self.fixture("wmata_elevator_incidents.HANDMADE.json"))
        let daemon = try daemon(upstream.url("/dyn/\(key)"), ["--facilities-stale-after", "5", "--facilities-interval", "3600"])
        defer { _ = daemon.stop() }
        // STATUS= says "(stale)" from the tick at which the snapshot was rebuilt as stale.
        try daemon.waitForStatus({ $0.contains("2 lift statuses (stale)") }, timeout: 60)
        let sheet = try daemon.result("stopSheet", ["stopId": "STN_A03"])
        #expect(sheet["data"]?["facilities"]?["stale"] == true)
        let now = sheet["accessibilityButton"]?["now"]
        #expect(now?["stepFree"] == "unknown" && now?["complete"] == false, "\(now?.encodedString ?? "")")
        #expect(Self.access(now) == [[.null, .null]])
        #expect(now?["outages"]?.arrayValue?.map(\.["status"]) == ["unknown", "unknown"])
        #expect(try daemon.result("facilities")["stale"] == true)
        #expect(try daemon.result("health")["status"] == "ready", "stale is not failing")
        // A good refresh (a 304 here: the same body) makes the statuses count again.
        let fresh = try refresh(daemon)
        #expect(fresh["stale"] == false && fresh["lastHTTPStatus"] == 304, "\(fresh.encodedString)")
        #expect(try Self.now(daemon, "STN_A03")?["stepFree"] == "none")
    }

    /// A billion-laughs body, an external entity and an undeclared entity reference are refused
    /// before anything expands or is fetched: the refresh fails with the reason, the last good
    /// statuses are kept and served.
    @Test func hostileXMLIsRefusedAndTheLastGoodDataKept() throws {
        let key = key()
        let fixture = try Self.fixture("siri_fm.HANDMADE.xml")
        try upstream.set(key: key, body: fixture.replacingOccurrences(of: "<Status>partiallyAvailable</Status>", with: "<Status>notAvailable</Status>"))
        let daemon = try daemon(upstream.url("/dyn/\(key)"), Self.siriNow)
        defer { _ = daemon.stop() }
        let good = try daemon.result("health")["facilities"]
        #expect(try Self.now(daemon, "U1234")?["stepFree"] == "none")
        let laughs = (1...9).map { #"<!ENTITY lol\#($0) "&lol\#($0 - 1);&lol\#($0 - 1);&lol\#($0 - 1);&lol\#($0 - 1);&lol\#($0 - 1);&lol\#($0 - 1);&lol\#($0 - 1);&lol\#($0 - 1);&lol\#($0 - 1);&lol\#($0 - 1);">"# }
        let bodies: [(String, String)] = [
            ("<?xml version=\"1.0\"?>\n<!DOCTYPE Siri [\n<!ENTITY lol0 \"lol\">\n\(laughs.joined(separator: "\n"))\n]>\n<Siri>&lol9;</Siri>", "DTD"),
            ("<?xml version=\"1.0\"?>\n<!DOCTYPE Siri [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>\n<Siri xmlns=\"http://www.siri.org.uk/siri\">&xxe;</Siri>", "DTD"),
            ("<?xml version=\"1.0\"?>\n<Siri xmlns=\"http://www.siri.org.uk/siri\"><ServiceDelivery>&xxe;</ServiceDelivery></Siri>", "xxe"),
        ]
        for (index, (body, reason)) in bodies.enumerated() {
            try upstream.set(key: key, body: body)
            let failed = try refresh(daemon)
            #expect(failed["lastError"]?.stringValue?.contains(reason) == true, "\(failed.encodedString)")
            #expect(failed["consecutiveFailures"]?.intValue == index + 1)
            #expect(failed["loaded"] == true && failed["count"] == good?["count"] && failed["loadedAt"] == good?["loadedAt"])
            #expect(try Self.now(daemon, "U1234")?["stepFree"] == "none", "still served from the last good status")
        }
        #expect(try daemon.result("health")["status"] == "degraded")
        let log = daemon.stderrText()
        #expect(log.contains("facilities refresh failed, keeping the last good data: facilities body did not decode"), "\(log.suffix(1500))")
        #expect(!log.contains("root:"), "nothing of /etc/passwd was read")
    }

    /// Issue 52's feeds over HTTP, one URL whose body changes format between refreshes: DB's
    /// FaSta, IDFM's CSV export (byte order mark, CRLF) and IDFM's API JSON each load, every unit
    /// listed (none names a station of these stations: each is at no station, never dropped),
    /// with what it serves; a FaSta body nested past the JSON limit and a CSV whose header lacks
    /// `liftId` are refused and the last good units kept.
    @Test func faStaAndIDFMBodiesLoadAndBadOnesKeepTheLastGood() throws {
        let key = key()
        try upstream.set(key: key, body: try Self.fixture("db_fasta.HANDMADE.json"))
        let daemon = try daemon(upstream.url("/dyn/\(key)"), ["--facilities-interval", "3600"])
        defer { _ = daemon.stop() }
        func units() throws -> [JSON] { try daemon.result("facilities")["units"]?.arrayValue ?? [] }
        func unit(_ id: String) throws -> JSON? { try units().first { $0["unitId"]?.stringValue == id } }
        #expect(try units().map(\.["unitId"]) == ["10499146", "10499147", "10499148", "10499149", "10499150"])
        let out = try unit("10499146")
        #expect(out?["status"] == "notAvailable" && out?["serving"] == "zu Gleis 1/2" && out?["description"] == "under maintenance", "\(out?.encodedString ?? "")")
        #expect(out?["unplaced"] == "noSuchStation" && out?["stationId"] == "")
        #expect(try daemon.result("health")["facilities"]?["notices"]?["count"] == 4)

        let deep = "[{\"equipmentnumber\":1,\"state\":\"INACTIVE\",\"x\":" + String(repeating: "[", count: 200) + String(repeating: "]", count: 200) + "}]"
        for (body, reason) in [(deep, "facilities body did not decode"),
                               ("ZdcId;liftStatus\r\n71370;notavailable\r\n", "the header has no liftId")] {
            try upstream.set(key: key, body: body)
            let failed = try refresh(daemon)
            #expect(failed["lastError"]?.stringValue?.contains(reason) == true, "\(failed.encodedString)")
            #expect(failed["loaded"] == true && failed["count"] == 5)
            #expect(try unit("10499146")?["status"] == "notAvailable", "the last good units are still served")
        }

        try upstream.set(key: key, body: try Self.fixture("idfm_lifts.HANDMADE.csv"))
        #expect(try refresh(daemon)["lastError"] == .null)
        #expect(try units().map(\.["unitId"]) == ["259", "260", "992", "993", "994", "995"])
        #expect(try unit("260")?["serving"] == "Quai 2; sortie rue d'Amsterdam, Terminus")
        #expect(try unit("992")?["status"] == "unknown", "an unmonitored lift is unknown, never out")
        #expect(try unit("260")?["since"] == "2026-09-16T16:15:00-04:00", "22:15 in Paris, shown in the stations' zone")

        try upstream.set(key: key, body: try Self.fixture("idfm_lifts.HANDMADE.json"))
        #expect(try refresh(daemon)["lastError"] == .null)
        #expect(try units().map { [$0["unitId"], $0["status"]] } == [["259", "available"], ["260", "notAvailable"], ["992", "unknown"]])
    }
}
