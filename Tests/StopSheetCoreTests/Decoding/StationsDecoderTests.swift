import StopSheetCore
import Testing

/// Format detection and the failures of bodies that are not stops at all.
@Suite struct StationsDecoderTests {
    @Test func detectsCSVByItsHeader() throws {
        #expect(try StationsDecoder.decode(Fixtures.bytes("L_stops_2021.csv")).count == 300)
        let quotedHeader = #""stop_id","map_id","station_name","ada","red","blue","g","brn","p","pexp","y","pnk","o""# + "\n"
        #expect(try StationsDecoder.decode(bytes(quotedHeader)) == [])
    }

    @Test(arguments: ["", " \n", "\u{FEFF}"])
    func emptyBody(text: String) {
        #expect(failure { try StationsDecoder.decode(bytes(text)) } == .unrecognisedFormat("empty body"))
    }

    @Test func htmlErrorPage() {
        #expect(failure { try StationsDecoder.decode(bytes("<html><body>Service Unavailable</body></html>")) }
            == .unrecognisedFormat("body is not JSON, an 'L' stops CSV or GTFS stops.txt (starts with '<')"))
    }

    @Test func otherCSVIsNotMistakenForStops() {
        // GTFS stops.txt names stations by parent_station, not MAP_ID: it is read as GTFS.
        let gtfs = "stop_id,stop_code,stop_name,stop_desc,stop_lat,stop_lon,location_type,parent_station,wheelchair_boarding\n"
        #expect((try? StationsDecoder.decodeStations(bytes(gtfs))) == DecodedStations(platforms: [], linesKnown: false, agencies: []))
        // MAP_ID on a later line does not count.
        #expect(failure { try StationsDecoder.decode(bytes("STOP_ID,NAME\nMAP_ID\n")) }
            == .unrecognisedFormat("body is not JSON, an 'L' stops CSV or GTFS stops.txt (starts with 'S')"))
    }

    @Test func aZipIsTheDaemonsToOpen() {
        #expect(failure { try StationsDecoder.decode([0x50, 0x4B, 0x03, 0x04, 0x14, 0x00]) }
            == .unrecognisedFormat("body is a zip archive; only a GTFS feed source reads one"))
    }

    @Test(arguments: [
        (#"{"alerts":[]}"#, "JSON root object has keys 'alerts'; expected 'stops' or an array of 'L' stops"),
        ("{}", "JSON root is an empty object; expected 'stops' or an array of 'L' stops"),
    ])
    func jsonOfAnotherShape(text: String, hint: String) {
        #expect(failure { try StationsDecoder.decode(bytes(text)) } == .unrecognisedFormat(hint))
    }

    @Test func brokenJSON() {
        #expect(failure { try StationsDecoder.decode(bytes(#"{"stops":[{"stopId":"#)) } == .invalidJSON(.unexpectedEnd))
        #expect(failure { try StationsDecoder.decode(bytes("[1,2")) } == .invalidJSON(.unexpectedEnd))
        let deep = [UInt8](repeating: UInt8(ascii: "["), count: 10_000)
        #expect(failure { try StationsDecoder.decode(deep) } == .invalidJSON(.tooDeep(limit: 64)))
    }

    @Test func invalidUTF8() throws {
        var body = Fixtures.bytes("L_stops_2021.csv")
        let offset = try #require(body.firstIndex(of: UInt8(ascii: "'")))  // in "O'Hare"
        body[offset] = 0x92  // Windows-1252 apostrophe
        #expect(failure { try StationsDecoder.decode(body) } == .invalidUTF8(offset: offset))
        #expect(failure { try StationsDecoder.decode([0xEF, 0xBB]) } == .invalidUTF8(offset: 0))
    }

    @Test func byteOrderMarkBeforeJSON() throws {
        #expect(try StationsDecoder.decode([0xEF, 0xBB, 0xBF] + bytes(#"{"stops":[]}"#)) == [])
    }
}
