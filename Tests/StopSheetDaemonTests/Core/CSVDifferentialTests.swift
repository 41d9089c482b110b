import Foundation
import StopSheetCore
import Testing

/// The CSV reader against Python's `csv` module, the reference most GTFS tools match: random
/// tables over the bytes that matter, and real tables (CTA's, and the quirk fixtures) with the
/// mutations agencies publish (Tests/CSV/python_csv_cases.py says which). Each input is read
/// whole and in chunks of several sizes, so a record split anywhere reads the same.
@Suite struct CSVDifferentialTests {
    struct Case {
        var bytes: [UInt8]
        var rows: [[String]]
        var table: [[String]]
    }

    static func cases(seed: Int, delimiter: String = ",", count: Int = 3000) throws -> [Case] {
        let tables = (delimiter == "," ? ["Fixtures/L_stops_2021.csv", "Fixtures/gtfs-any-agency/stops.txt", "Fixtures/gtfs-any-agency/agency.txt",
                                          "Fixtures/gtfs-quirks/README.md"]
                                       : ["Fixtures/facilities/idfm_etat_des_ascenseurs_2024-04-16_first-3-rows.REAL.csv",
                                          "Fixtures/facilities/idfm_lifts.HANDMADE.csv"])
            .map { GTFSFeeds.tests + "/" + $0 }.filter { FileManager.default.fileExists(atPath: $0) }
        let made = try runProcess("/usr/bin/env", ["python3", GTFSFeeds.tests + "/CSV/python_csv_cases.py", "--seed", String(seed), "--count", String(count),
                                                   "--delimiter", delimiter]
            + tables.flatMap { ["--table", $0] })
        guard made.status == 0 else { throw TestFailure("python_csv_cases.py: \(made.stderr)") }
        return try made.stdout.split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            let hex = Array((object["bytes"] as! String).utf8)
            let bytes = stride(from: 0, to: hex.count, by: 2).map { UInt8(String(decoding: hex[$0..<($0 + 2)], as: UTF8.self), radix: 16)! }
            return Case(bytes: bytes, rows: object["rows"] as! [[String]], table: object["table"] as! [[String]])
        }
    }

    static func records(_ bytes: [UInt8], chunk: Int, separator: UInt8 = CSVRecordStream.comma) throws -> [[String]] {
        var stream = CSVRecordStream(separator: separator)
        var rows: [[String]] = []
        let collect = { (record: CSVRecordStream.Record) throws(DecodingFailure) in rows.append((0..<record.count).map { record[$0] }) }
        var start = 0
        while start < bytes.count {
            try stream.consume(bytes[start..<min(bytes.count, start + chunk)], collect)
            start += chunk
        }
        try stream.finish(collect)
        return rows
    }

    static func table(_ bytes: [UInt8], header: [String], chunk: Int) throws -> [[String]] {
        var reader = GTFSTableReader(name: "t.txt", required: [], optional: header)
        var rows: [[String]] = []
        let collect = { (row: GTFSTableReader.Row) throws(DecodingFailure) in rows.append(header.indices.map { row.text($0) }) }
        var start = 0
        while start < bytes.count {
            try reader.consume(Array(bytes[start..<min(bytes.count, start + chunk)]), collect)
            start += chunk
        }
        try reader.finish(collect)
        return rows
    }

    @Test(arguments: [1, 2])
    func readsAsPythonsCSV(seed: Int) throws {
        let cases = try Self.cases(seed: seed)
        #expect(cases.count > 3000)
        var differing = 0
        for (index, one) in cases.enumerated() {
            for chunk in [one.bytes.count + 1, 1, 1 + index % 7, 64] {
                let read = try Self.records(one.bytes, chunk: chunk)
                if read != one.rows, differing < 5 {
                    differing += 1
                    Issue.record("\(one.bytes) in chunks of \(chunk): read \(read), Python reads \(one.rows)")
                }
            }
            #expect(try CSVReader.rows(one.bytes) == one.rows)
        }
    }

    /// IDFM's lift exports are `;`-separated: the same reader with that separator reads as
    /// `csv.reader(delimiter=";")`, on random tables holding `;` and on the real export's mutations.
    @Test func readsSemicolonSeparatedAsPythonsCSV() throws {
        // Fewer random tables than the comma's: the reader is the same but for the separator.
        let cases = try Self.cases(seed: 4, delimiter: ";", count: 1000)
        #expect(cases.count > 1000)
        var differing = 0
        for (index, one) in cases.enumerated() {
            for chunk in [one.bytes.count + 1, 1, 1 + index % 7] {
                let read = try Self.records(one.bytes, chunk: chunk, separator: UInt8(ascii: ";"))
                if read != one.rows, differing < 5 {
                    differing += 1
                    Issue.record("\(one.bytes) in chunks of \(chunk): read \(read), Python reads \(one.rows)")
                }
            }
            #expect(try CSVReader.rows(one.bytes, separator: UInt8(ascii: ";")) == one.rows)
        }
        // The real export's rows hold commas (its centroids), which are data here.
        #expect(cases.contains { $0.rows.contains { $0.contains("48.875937635687144,2.3252630353731822") } })
    }

    /// As a GTFS table: blank lines skipped, rows of another field count than the header's left
    /// out, values trimmed. The header here is the table's own, taken as given.
    @Test func readsTablesAsPythonsCSVThenTrimmed() throws {
        var checked = 0
        for (index, one) in try Self.cases(seed: 3).enumerated() {
            guard let header = one.table.first, header.count == Set(header.map { $0.lowercased() }).count, !header.contains("") else { continue }
            checked += 1
            for chunk in [one.bytes.count + 1, 1 + index % 5] {
                #expect(try Self.table(one.bytes, header: header.map { $0.lowercased() }, chunk: chunk) == Array(one.table.dropFirst()), "\(one.bytes)")
            }
        }
        // The real tables and their mutations at least.
        #expect(checked > 60)
    }
}
