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

    /// U+FEC0 is EF BB 80: it starts as the mark does, but is a letter, and data (Python's
    /// `utf-8-sig` keeps it). Whole, and fed a byte at a time.
    @Test func aCharacterThatOnlyStartsLikeTheMarkIsData() throws {
        #expect(try rows("\u{FEC0}a,b\n") == [["\u{FEC0}a", "b"]])
        #expect(try Self.streamed([0xEF, 0xBB, 0x80, 0x2C, 0x62], chunk: 1) == [[[0xEF, 0xBB, 0x80], [0x62]]])
        // A body ending inside the mark's first bytes keeps them (the stream reads bytes; only
        // `CSVReader.rows` checks they are UTF-8).
        #expect(try Self.streamed([0xEF, 0xBB], chunk: 1) == [[[0xEF, 0xBB]]])
        #expect(try Self.streamed([0xEF, 0xBB, 0xBF, 0x61], chunk: 1) == [[[0x61]]])
    }

    /// A record holds at most `maxRecordBytes` bytes of fields; one more is a failure, also when
    /// the bytes come one by one (each `""` in quotes is one quote).
    @Test func aRecordOfTheLimitIsReadAndOneByteMoreIsNot() throws {
        func quotes(_ count: Int) -> [UInt8] { Array(("\"" + String(repeating: "\"\"", count: count) + "\"\n").utf8) }
        #expect(try Self.streamed(quotes(4), chunk: 100, maxRecordBytes: 4) == [[Array("\"\"\"\"".utf8)]])
        #expect(throws: DecodingFailure.invalidCSV(.recordTooLong(line: 1, limit: 4))) { try Self.streamed(quotes(5), chunk: 100, maxRecordBytes: 4) }
        #expect(try Self.streamed(Array("abcd\n".utf8), chunk: 1, maxRecordBytes: 4) == [[Array("abcd".utf8)]])
        #expect(throws: DecodingFailure.invalidCSV(.recordTooLong(line: 1, limit: 4))) { try Self.streamed(Array("abcde\n".utf8), chunk: 1, maxRecordBytes: 4) }
        // Whole records in one read (the path that reads a record at once), with LF and CRLF; a
        // record too long there is named by its own line.
        #expect(try Self.streamed(Array("abcd\nab,c\r\nxy\n".utf8), chunk: 100, maxRecordBytes: 4) == [[Array("abcd".utf8)], [Array("ab".utf8), Array("c".utf8)], [Array("xy".utf8)]])
        #expect(throws: DecodingFailure.invalidCSV(.recordTooLong(line: 2, limit: 4))) { try Self.streamed(Array("ab\nabcde\r\n".utf8), chunk: 100, maxRecordBytes: 4) }
    }

    /// A line break inside quotes starts a line, CRLF as one: the record after it starts on line 3.
    @Test func aRecordAfterQuotedLineBreaksStartsOnItsLine() throws {
        var stream = CSVRecordStream()
        var lines: [Int] = []
        let collect = { (record: CSVRecordStream.Record) throws(DecodingFailure) in lines.append(record.line) }
        try stream.consume(Array("\"a\r\nb\",x\nc\n\"d\re\"\nf".utf8), collect)
        try stream.finish(collect)
        #expect(lines == [1, 3, 4, 6])
    }

    /// A CR and an LF inside quotes are one line break only when the LF follows the CR at once:
    /// with a doubled quote between them, or a field's end and the next one's opening quote, they
    /// are two. Python's `csv.reader(..., newline='')` reads the records of this text ending on
    /// lines 3, 4, 7 and 8 (its `line_num`), so they start on 1, 4, 5 and 8.
    @Test func aCROrLFApartInsideQuotesAreTwoLineBreaks() throws {
        let text = Array("\"a\r\"\"\nb\",x\r\nnext\r\n\"c\r\",\"\nd\"\nlast\n".utf8)
        for chunk in [1, 3, text.count] {
            var stream = CSVRecordStream()
            var lines: [Int] = []
            let collect = { (record: CSVRecordStream.Record) throws(DecodingFailure) in lines.append(record.line) }
            for start in stride(from: 0, to: text.count, by: chunk) { try stream.consume(Array(text[start..<min(text.count, start + chunk)]), collect) }
            try stream.finish(collect)
            #expect(lines == [1, 4, 5, 8], "chunks of \(chunk)")
        }
    }

    /// The records' fields as bytes, `body` fed to a `CSVRecordStream` in chunks of `chunk` bytes.
    static func streamed(_ body: [UInt8], chunk: Int, maxRecordBytes: Int = .max) throws -> [[[UInt8]]] {
        var stream = CSVRecordStream(maxRecordBytes: maxRecordBytes)
        var records: [[[UInt8]]] = []
        let collect = { (record: CSVRecordStream.Record) throws(DecodingFailure) in records.append((0..<record.count).map { Array(record.bytes($0)) }) }
        for start in stride(from: 0, to: body.count, by: chunk) {
            try stream.consume(body[start..<min(body.count, start + chunk)], collect)
        }
        try stream.finish(collect)
        return records
    }

    // Expected values below are what Python's csv.reader gives (CSVDifferentialTests checks
    // many more against Python itself).
    @Test func dataRowsSkipTheHeaderAndBlankLinesAndKeepTheirPositions() throws {
        let table = try rows("h1,h2\n\na,b\n\"\"\n,\nc\n")
        let data = CSVReader.dataRows(table)
        #expect(data.map(\.offset) == [2, 4, 5])
        #expect(data.map(\.element) == [["a", "b"], ["", ""], ["c"]])
    }

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
