import StopSheetCore
import Testing

/// The real CSV rows rewritten as the dataset's JSON forms.
enum LStopsJSONStyle: String, CaseIterable, Sendable {
    /// Socrata API: lowercase keys, string ids, JSON booleans, a `location` object.
    case socrata
    /// Other exports: the CSV's uppercase names, numeric ids, "true"/"false" strings.
    case uppercase

    func row(_ header: [String], _ fields: [String]) -> JSON {
        var object = JSONObject()
        for (name, value) in zip(header, fields) {
            switch self {
            case .socrata:
                let key = name.lowercased()
                if key == "location" {
                    let coordinates = value.dropFirst().dropLast().split(separator: ",").map { String($0.filter { $0 != " " }) }
                    object.append(key, ["latitude": .string(coordinates[0]), "longitude": .string(coordinates[1])])
                } else if value == "true" || value == "false" {
                    object.append(key, .bool(value == "true"))
                } else {
                    object.append(key, .string(value))
                }
            case .uppercase:
                object.append(name, name.hasSuffix("_ID") && value.allSatisfy(\.isNumber) ? .number(value) : .string(value))
            }
        }
        return .object(object)
    }

    func document(_ rows: [[String]]) -> [UInt8] {
        JSON.array(rows.dropFirst().map { row(rows[0], $0) }).encoded
    }
}

@Suite struct LStopsJSONDecoderTests {
    @Test(arguments: LStopsJSONStyle.allCases)
    func wholeRealFileDecodesAsTheCSVDoes(style: LStopsJSONStyle) throws {
        let rows = try realLStopsRows()
        let fromCSV = try LStopsCSVDecoder.decode(Fixtures.bytes("L_stops_2021.csv"))
        #expect(try StationsDecoder.decode(style.document(rows)) == fromCSV)
    }

    @Test(arguments: LStopsJSONStyle.allCases)
    func aFewRealRows(style: LStopsJSONStyle) throws {
        let rows = try realLStopsRows()
        let picked = [rows[0]] + rows.filter { ["30112", "30175", "30384"].contains($0[0]) }
        let body = style.document(picked)
        #expect(try StationsDecoder.decode(body) == [
            Platform(stopID: "30175", stationID: "40900", stationName: "Howard", direction: "N",
                     routes: [.purple, .purpleExpress, .yellow], stepFree: true, name: "Howard (Linden, Skokie-bound)"),
            Platform(stopID: "30384", stationID: "41700", stationName: "Washington/Wabash", direction: "S",
                     routes: [.green, .orange, .purpleExpress, .pink], stepFree: true, name: "Washington/Wabash (Inner Loop)"),
            Platform(stopID: "30112", stationID: "40570", stationName: "California", direction: "S",
                     routes: [.blue], stepFree: false, name: "California (Forest Pk-bound)"),
        ])
    }

    @Test func socrataRowAsPublished() throws {
        let body = #"""
        [{"stop_id":"30374","direction_id":"S","stop_name":"Clark/Lake (Forest Pk-bound)","station_name":"Clark/Lake",
          "station_descriptive_name":"Clark/Lake (Blue, Brown, Green, Orange, Purple & Pink Lines)","map_id":"40380",
          "ada":true,"red":false,"blue":true,"g":false,"brn":false,"p":false,"pexp":false,"y":false,"pnk":false,"o":false,
          "location":{"latitude":"41.885737","longitude":"-87.630886","human_address":"{\"address\": \"\", \"city\": \"\", \"state\": \"\", \"zip\": \"\"}"}}]
        """#
        #expect(try StationsDecoder.decode(bytes(body)) == [
            Platform(stopID: "30374", stationID: "40380", stationName: "Clark/Lake", direction: "S", routes: [.blue], stepFree: true,
                     name: "Clark/Lake (Forest Pk-bound)"),
        ])
    }

    @Test func socrataLeavesOutNullMembers() throws {
        let body = #"[{"stop_id":30374,"map_id":40380,"station_name":"Clark/Lake","blue":"TRUE"}]"#
        #expect(try StationsDecoder.decode(bytes(body)) == [
            Platform(stopID: "30374", stationID: "40380", stationName: "Clark/Lake", routes: [.blue], stepFree: nil),
        ])
    }

    @Test(arguments: [
        ("true", Bool?(true)), (#""True""#, true), ("false", false), (#""false""#, false),
        ("null", nil), (#""""#, nil), (#""unknown""#, nil), ("1", nil),
    ])
    func adaValues(ada: String, stepFree: Bool?) throws {
        let body = #"[{"stop_id":"30374","map_id":"40380","station_name":"Clark/Lake","ada":\#(ada)}]"#
        #expect(try StationsDecoder.decode(bytes(body)).first?.stepFree == stepFree)
    }

    @Test func keysInAnyCase() throws {
        let body = #"[{"Stop_Id":"30374","MAP_ID":"40380","Station_Name":"Clark/Lake","Direction_ID":"S","BLUE":true,"PEXP":"true"}]"#
        #expect(try StationsDecoder.decode(bytes(body)) == [
            Platform(stopID: "30374", stationID: "40380", stationName: "Clark/Lake", direction: "S",
                     routes: [.blue, .purpleExpress], stepFree: nil),
        ])
    }

    @Test func emptyArray() throws {
        #expect(try StationsDecoder.decode(bytes("[]")) == [])
    }

    @Test(arguments: [
        (#"[5]"#, DecodingFailure.malformed(path: "[0]", reason: "expected an object, found a number")),
        (#"[{"map_id":"40380","station_name":"X"}]"#, .malformed(path: "[0].stop_id", reason: "missing")),
        (#"[{"stop_id":"30374","station_name":"X"}]"#, .malformed(path: "[0].map_id", reason: "missing")),
        (#"[{"stop_id":"30374","map_id":true,"station_name":"X"}]"#, .malformed(path: "[0].map_id", reason: "expected a string or a number, found a boolean")),
        (#"[{"stop_id":"30374","map_id":"40380"}]"#, .malformed(path: "[0].station_name", reason: "missing")),
        (#"[{"stop_id":"30374","map_id":"40380","station_name":null}]"#, .malformed(path: "[0].station_name", reason: "empty")),
        (#"[{"stop_id":"30374","map_id":"40380","station_name":{}}]"#, .malformed(path: "[0].station_name", reason: "expected a string or a number, found an object")),
        (#"[{"stop_id":"30374","map_id":"40380","station_name":"X","red":1}]"#, .malformed(path: "[0].red", reason: "expected true or false, found a number")),
        (#"[{"stop_id":"30374","map_id":"40380","station_name":"X","RED":"yes"}]"#, .malformed(path: "[0].red", reason: "expected true or false, found 'yes'")),
        (#"[{"stop_id":"30374","map_id":"40380","station_name":"X","direction_id":7}]"#, .malformed(path: "[0].direction_id", reason: "expected a string, found a number")),
    ])
    func wrongShapesNameThePath(body: String, expected: DecodingFailure) {
        #expect(failure { try StationsDecoder.decode(bytes(body)) } == expected)
    }

    @Test func rootMustBeAnArray() {
        #expect(failure { try LStopsJSONDecoder.decode(["stop_id": "30374"]) }
            == .malformed(path: "root", reason: "expected an array of stops, found an object"))
    }

    @Test func itemLimit() {
        let row = #"{"stop_id":"30374","map_id":"40380","station_name":"X"}"#
        let body = "[" + Array(repeating: row, count: 3).joined(separator: ",") + "]"
        #expect(failure { try StationsDecoder.decode(bytes(body), limits: DecodingLimits(maxItems: 2)) } == .tooMany(count: nil, limit: 2))
    }
}
