import StopSheetCore
import Testing

@Suite struct CSVReaderTests {
    func rows(_ text: String) throws -> [[String]] { try CSVReader.rows(bytes(text)) }

    @Test func plainFieldsWithLFOrCRLF() throws {
        #expect(try rows("a,b,c\n1,2,3\n") == [["a", "b", "c"], ["1", "2", "3"]])
        #expect(try rows("a,b,c\r\n1,2,3\r\n") == [["a", "b", "c"], ["1", "2", "3"]])
        #expect(try rows("a,b,c\r\n1,2,3\n4,5,6\r\n") == [["a", "b", "c"], ["1", "2", "3"], ["4", "5", "6"]])
    }

    @Test func finalLineBreakIsOptional() throws {
        #expect(try rows("a,b\n1,2") == [["a", "b"], ["1", "2"]])
        #expect(try rows("a,b\r\n1,2") == [["a", "b"], ["1", "2"]])
        #expect(try rows("a") == [["a"]])
    }

    @Test func emptyFields() throws {
        #expect(try rows(",\n") == [["", ""]])
        #expect(try rows("a,,c,\n") == [["a", "", "c", ""]])
        #expect(try rows(#""",x"# + "\n") == [["", "x"]])
        #expect(try rows(#""""#) == [[""]])
        #expect(try rows("a,") == [["a", ""]])
    }

    @Test func quotedFields() throws {
        #expect(try rows(#""Howard (Red, Purple & Yellow Lines)",40900"#) == [["Howard (Red, Purple & Yellow Lines)", "40900"]])
        #expect(try rows(#""O""Hare ""Blue""",x"#) == [[#"O"Hare "Blue""#, "x"]])
        #expect(try rows(#""""""#) == [[#"""#]])
        #expect(try rows("\"line one\nline two\",b\nc,d\n") == [["line one\nline two", "b"], ["c", "d"]])
        // A line break inside quotes is data, kept byte for byte.
        #expect(try rows("\"one\r\ntwo\"\r\nc\r\n") == [["one\r\ntwo"], ["c"]])
        #expect(try rows("\"a\"\r\n\"b\"") == [["a"], ["b"]])
    }

    @Test func byteOrderMarkIsSkippedOnlyAtTheStart() throws {
        #expect(try rows("\u{FEFF}STOP_ID,MAP_ID\n") == [["STOP_ID", "MAP_ID"]])
        #expect(try rows("\u{FEFF}\"STOP_ID\",MAP_ID\n") == [["STOP_ID", "MAP_ID"]])
        #expect(try rows("a,\u{FEFF}b\n") == [["a", "\u{FEFF}b"]])
    }

    // Expected values below are what Python's csv.reader gives (CSVDifferentialTests checks
    // many more against Python itself).
    @Test func blankLinesAreRecordsOfNoFields() throws {
        #expect(try rows("") == [])
        #expect(try rows("\n") == [[]])
        #expect(try rows("a\n\nb\n") == [["a"], [], ["b"]])
        #expect(try rows("a\r\n\r\n") == [["a"], []])
        #expect(try rows("a,b\r\rc") == [["a", "b"], [], ["c"]])
    }

    @Test func loneCarriageReturnEndsARecord() throws {
        #expect(try rows("a\rb,c\n") == [["a"], ["b", "c"]])
        #expect(try rows("\"ab\"\rx\n") == [["ab"], ["x"]])
    }

    @Test func nonASCIIText() throws {
        #expect(try rows("Café,\"Ñandú, 🚇\"\n") == [["Café", "Ñandú, 🚇"]])
    }

    @Test func aQuoteLeftOpenRunsToTheEnd() throws {
        #expect(try rows("a,b\n\"c,d\n") == [["a", "b"], ["c,d\n"]])
        #expect(try rows("\"") == [[""]])
        #expect(try rows("\"\"\"") == [["\""]])
        #expect(try rows("\"ab\"\"\n") == [["ab\"\n"]])
    }

    @Test func quotesOutsideAQuotedFieldAreData() throws {
        #expect(try rows("ab\"c\n") == [["ab\"c"]])
        #expect(try rows("x\n\"ab\"c,d\n") == [["x"], ["abc", "d"]])
        // The agency.txt that failed a whole metro feed: a space after the closing quote.
        #expect(try rows("\"ab\" ,d\n") == [["ab ", "d"]])
        #expect(try rows("\"ab\"\t\n") == [["ab\t"]])
    }

    @Test func invalidUTF8() {
        #expect(failure { try CSVReader.rows(bytes("a,b\nc,") + [0xE9] + bytes("\n")) } == .invalidUTF8(offset: 6))
    }

    @Test func realFileHasSeventeenFieldsOnEveryRow() throws {
        let rows = try CSVReader.rows(Fixtures.bytes("L_stops_2021.csv"))
        #expect(rows.count == 301)
        #expect(rows.allSatisfy { $0.count == 17 })
        #expect(rows[0] == ["STOP_ID", "DIRECTION_ID", "STOP_NAME", "STATION_NAME", "STATION_DESCRIPTIVE_NAME", "MAP_ID", "ADA",
                            "RED", "BLUE", "G", "BRN", "P", "Pexp", "Y", "Pnk", "O", "Location"])
        #expect(rows.last?.last == "(41.97766526, -87.90422307)")
    }

    @Test func roundTripsTheRealFileThroughTheTestWriter() throws {
        let rows = try CSVReader.rows(Fixtures.bytes("L_stops_2021.csv"))
        #expect(try CSVReader.rows(bytes(csv(rows, lineEnd: "\r\n"))) == rows)
    }
}
