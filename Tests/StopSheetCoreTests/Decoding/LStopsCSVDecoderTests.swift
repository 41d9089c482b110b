import StopSheetCore
import Testing

let lStopsHeader = "STOP_ID,DIRECTION_ID,STOP_NAME,STATION_NAME,STATION_DESCRIPTIVE_NAME,MAP_ID,ADA,RED,BLUE,G,BRN,P,Pexp,Y,Pnk,O,Location"

/// The real CSV, parsed into rows, for building variants.
func realLStopsRows() throws -> [[String]] { try CSVReader.rows(Fixtures.bytes("L_stops_2021.csv")) }

@Suite struct LStopsCSVRealDataTests {
    let platforms: [Platform]

    init() throws { platforms = try LStopsCSVDecoder.decode(Fixtures.bytes("L_stops_2021.csv")) }

    func platform(_ stopID: String) throws -> Platform { try #require(platforms.first { $0.stopID == stopID }) }

    @Test func threeHundredPlatformsAtOneHundredFortyThreeStations() {
        #expect(platforms.count == 300)
        #expect(Set(platforms.map(\.stopID)).count == 300)
        #expect(Set(platforms.map(\.stationID)).count == 143)
        #expect(platforms.allSatisfy { $0.stopID.hasPrefix("3") && $0.stationID.hasPrefix("4") })
    }

    @Test func stepFreeAndDirectionCounts() {
        #expect(platforms.filter { $0.stepFree == true }.count == 212)
        #expect(platforms.filter { $0.stepFree == false }.count == 88)
        #expect(platforms.allSatisfy { $0.stepFree != nil })
        let directions = Dictionary(grouping: platforms.compactMap(\.direction), by: { $0 }).mapValues(\.count)
        #expect(directions == ["N": 104, "S": 104, "E": 46, "W": 46])
    }

    @Test func everyLineFlagMapsToItsRoute() {
        let counts = Dictionary(grouping: platforms.flatMap(\.routes), by: { $0 }).mapValues(\.count)
        #expect(counts == [.red: 66, .blue: 66, .green: 60, .brown: 46, .purple: 18, .purpleExpress: 44,
                           .yellow: 6, .pink: 36, .orange: 24])
    }

    @Test func spotChecks() throws {
        #expect(platforms.first == Platform(stopID: "30186", stationID: "40960", stationName: "Pulaski", direction: "S",
                                            routes: [.orange], stepFree: true, name: "Pulaski (Midway-bound)"))
        #expect(try platform("30175").routes == [.purple, .purpleExpress, .yellow])  // Howard (Linden, Skokie-bound)
        #expect(try platform("30384").routes == [.green, .orange, .purpleExpress, .pink])  // Washington/Wabash, CTA line order
        #expect(try platform("30088").stationName == "95th/Dan Ryan")
        #expect(try platform("30165").stationName == "Harold Washington Library-State/Van Buren")
        #expect(try platform("30171").stationName == "O'Hare")
    }

    @Test func stationNameIsNeverTheDescriptiveName() throws {
        // STATION_DESCRIPTIVE_NAME of 30112 is "California  (Blue Line)" (two spaces).
        let california = try platform("30112")
        #expect(california == Platform(stopID: "30112", stationID: "40570", stationName: "California", direction: "S",
                                       routes: [.blue], stepFree: false, name: "California (Forest Pk-bound)"))
        #expect(!platforms.contains { $0.stationName.contains("(") })
    }

    @Test func eachStationHasOneName() {
        let names = Dictionary(grouping: platforms, by: \.stationID).mapValues { Set($0.map(\.stationName)) }
        #expect(names.values.allSatisfy { $0.count == 1 })
        #expect(names["40380"] == ["Clark/Lake"])
    }

    @Test func platformsGroupIntoStations() {
        let clarkLake = Station(id: "40380", name: "Clark/Lake", platforms: platforms.filter { $0.stationID == "40380" })
        #expect(clarkLake.platforms.map(\.stopID) == ["30374", "30375", "30074", "30075"])
        #expect(clarkLake.routes == [.blue, .brown, .green, .orange, .purpleExpress, .pink])
        #expect(clarkLake.stepFree == .available)
    }

    enum Variant: String, CaseIterable, Sendable {
        case crlf, byteOrderMark, byteOrderMarkAndCRLF, noFinalLineBreak, trailingBlankLines, lowerCaseHeader

        func apply(_ text: String) -> String {
            switch self {
            case .crlf: return text.replacing("\n", with: "\r\n")
            case .byteOrderMark: return "\u{FEFF}" + text
            case .byteOrderMarkAndCRLF: return "\u{FEFF}" + text.replacing("\n", with: "\r\n")
            case .noFinalLineBreak: return String(text.dropLast())
            case .trailingBlankLines: return text + "\n\r\n"
            case .lowerCaseHeader: return text.replacing(lStopsHeader, with: lStopsHeader.lowercased())
            }
        }
    }

    @Test(arguments: Variant.allCases)
    func variantsOfTheRealFileDecodeTheSame(variant: Variant) throws {
        let original = Fixtures.text("L_stops_2021.csv")
        let text = variant.apply(original)
        #expect(text != original)
        #expect(try LStopsCSVDecoder.decode(bytes(text)) == platforms)
        #expect(try StationsDecoder.decode(bytes(text)) == platforms)
    }

    @Test func columnsAreFoundByNameInAnyOrder() throws {
        let reversed = try realLStopsRows().map { Array($0.reversed()) }
        #expect(try LStopsCSVDecoder.decode(bytes(csv(reversed))) == platforms)
    }

    @Test func extraColumnsAndNoDirectionColumn() throws {
        let rows = try realLStopsRows()
        let withExtra = rows.enumerated().map { $0.element + [$0.offset == 0 ? "NOTES" : "x, y"] }
        #expect(try LStopsCSVDecoder.decode(bytes(csv(withExtra))) == platforms)
        let withoutDirection = rows.map { Array($0[0..<1] + $0[2...]) }
        #expect(try LStopsCSVDecoder.decode(bytes(csv(withoutDirection))).allSatisfy { $0.direction == nil })
    }

    @Test func itemLimit() {
        let body = Fixtures.bytes("L_stops_2021.csv")
        #expect(failure { try LStopsCSVDecoder.decode(body, limits: DecodingLimits(maxItems: 299)) } == .tooMany(count: 300, limit: 299))
        #expect(failure { try StationsDecoder.decode(body, limits: DecodingLimits(maxItems: 300)) } == nil)
    }

    @Test func truncatedFile() throws {
        let text = Fixtures.text("L_stops_2021.csv")
        // Inside the last row's quoted Location: read to the end, as Python's csv does.
        #expect(try LStopsCSVDecoder.decode(bytes(String(text.dropLast(10)))).count == 300)
        // Inside the last row's flags.
        #expect(failure { try LStopsCSVDecoder.decode(bytes(String(text.dropLast(60)))) }
            == .malformed(path: "row 301", reason: "12 fields, the header has 17"))
    }
}

@Suite struct LStopsCSVFieldTests {
    /// A one-platform CSV with the real header; `fields` overrides columns by name.
    func decode(_ fields: [String: String]) throws -> Platform? {
        var row = ["30374", "S", "Clark/Lake (Forest Pk-bound)", "Clark/Lake", "Clark/Lake (Blue Line)", "40380", "true",
                   "false", "true", "false", "false", "false", "false", "false", "false", "false", "(41.885737, -87.630886)"]
        let names = lStopsHeader.split(separator: ",").map(String.init)
        for (name, value) in fields { row[names.firstIndex(of: name)!] = value }
        return try LStopsCSVDecoder.decode(bytes(lStopsHeader + "\n" + csvLine(row) + "\n")).first
    }

    @Test func stationNameIsPassedOnRaw() throws {
        #expect(try decode(["STATION_NAME": "  Clark/Lake \t"])?.stationName == "  Clark/Lake \t")
        #expect(try decode(["STATION_NAME": "California  (Blue Line)"])?.stationName == "California  (Blue Line)")
        #expect(try decode(["STATION_NAME": "Clark,\nLake"])?.stationName == "Clark,\nLake")
    }

    @Test(arguments: [
        ("true", Bool?(true)), ("TRUE", true), (" True ", true), ("false", false), ("False", false),
        ("", nil), ("unknown", nil), ("1", nil), ("0", nil),
    ])
    func adaBecomesStepFree(ada: String, stepFree: Bool?) throws {
        #expect(try decode(["ADA": ada])?.stepFree == stepFree)
    }

    @Test func flagsInAnyCaseAndEmptyAsFalse() throws {
        #expect(try decode(["RED": "TRUE", "BLUE": "", "Y": "True", "Pnk": " true "])?.routes == [.red, .pink, .yellow])
    }

    @Test func idsAndDirectionAreTrimmed() throws {
        let platform = try decode(["STOP_ID": " 30374 ", "MAP_ID": "40380 ", "DIRECTION_ID": " S"])
        #expect(platform?.stopID == "30374")
        #expect(platform?.stationID == "40380")
        #expect(platform?.direction == "S")
        #expect(try decode(["DIRECTION_ID": ""])?.direction == nil)
    }

    @Test(arguments: [
        (["RED": "yes"], DecodingFailure.malformed(path: "row 2 column RED", reason: "expected true or false, found 'yes'")),
        (["Pexp": "1"], .malformed(path: "row 2 column Pexp", reason: "expected true or false, found '1'")),
        (["STOP_ID": ""], .malformed(path: "row 2 column STOP_ID", reason: "empty")),
        (["MAP_ID": "  "], .malformed(path: "row 2 column MAP_ID", reason: "empty")),
        (["STATION_NAME": " "], .malformed(path: "row 2 column STATION_NAME", reason: "empty")),
    ])
    func badValuesNameRowAndColumn(fields: [String: String], expected: DecodingFailure) {
        #expect(failure { try decode(fields) } == expected)
    }

    @Test func rowNumbersCountTheHeaderAndSkipNothingButBlankLines() {
        let good = "30374,S,a,Clark/Lake,b,40380,true,false,true,false,false,false,false,false,false,false,x"
        let body = [lStopsHeader, good, "", good, "30375,N,a,Clark/Lake,b,40380,true"].joined(separator: "\n")
        #expect(failure { try LStopsCSVDecoder.decode(bytes(body)) } == .malformed(path: "row 5", reason: "7 fields, the header has 17"))
        let tooWide = [lStopsHeader, good + ",extra"].joined(separator: "\n")
        #expect(failure { try LStopsCSVDecoder.decode(bytes(tooWide)) } == .malformed(path: "row 2", reason: "18 fields, the header has 17"))
    }

    @Test(arguments: ["ADA", "STOP_ID", "MAP_ID", "STATION_NAME", "RED", "Pexp", "Pnk", "O"])
    func missingRequiredColumn(column: String) throws {
        let rows = try realLStopsRows()
        let index = try #require(rows[0].firstIndex(of: column))
        let without = rows.map { row in row.enumerated().filter { $0.offset != index }.map(\.element) }
        #expect(failure { try LStopsCSVDecoder.decode(bytes(csv(without))) } == .malformed(path: "header", reason: "no \(column) column"))
    }

    @Test func headerOnlyOrNothing() throws {
        #expect(try LStopsCSVDecoder.decode(bytes(lStopsHeader)) == [])
        #expect(try LStopsCSVDecoder.decode(bytes(lStopsHeader + "\r\n")) == [])
        #expect(failure { try LStopsCSVDecoder.decode([]) } == .malformed(path: "header", reason: "no header row"))
    }
}
