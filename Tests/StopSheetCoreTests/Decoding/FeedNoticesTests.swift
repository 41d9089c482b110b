import StopSheetCore
import Testing

/// What a feed had to skip: every notice counted, the first 10 kept with their text, in the order
/// the tables were read and by line within one (`health.stations.notices`).
@Suite struct FeedNoticesTests {
    static func notices(_ lines: [Int], file: String = "stops.txt") -> FeedNotices {
        var notices = FeedNotices()
        for line in lines { notices.add(file, line: line, "problem on line \(line)") }
        return notices
    }

    @Test func theFirstTenOfMoreAreKeptAndAllCounted() {
        let notices = Self.notices(Array(2...13))
        #expect(notices.count == 12)
        #expect(notices.first.map(\.line) == [2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
        #expect(notices.first.last == FeedNotices.Notice(file: "stops.txt", line: 11, problem: "problem on line 11"))
        #expect(Self.notices(Array(1...10)).first.count == 10)
    }

    @Test func anotherTablesNoticesComeAfter() {
        var notices = Self.notices([4, 9, 12], file: "routes.txt")
        notices.append(Self.notices(Array(2...10)))
        #expect(notices.count == 12)
        #expect(notices.first.map { "\($0.file):\($0.line)" } == ["routes.txt:4", "routes.txt:9", "routes.txt:12",
                                                              "stops.txt:2", "stops.txt:3", "stops.txt:4", "stops.txt:5",
                                                              "stops.txt:6", "stops.txt:7", "stops.txt:8"])
    }

    @Test func twoReadersOfOneTableInterleaveByLine() {
        let merged = FeedNotices.merged(Self.notices([2, 7, 30]), Self.notices([3, 5]))
        #expect(merged.count == 5)
        #expect(merged.first.map(\.line) == [2, 3, 5, 7, 30])
        let many = FeedNotices.merged(Self.notices(Array(stride(from: 2, through: 24, by: 2))), Self.notices([3, 5]))
        #expect(many.count == 14)
        #expect(many.first.map(\.line) == [2, 3, 4, 5, 6, 8, 10, 12, 14, 16])
    }

    @Test func aFeedOfTwelveBadRowsSaysTwelveAndShowsTen() throws {
        // Rows 2 to 13 have an empty stop_id; row 14 is good.
        let table = "stop_id,stop_name\n" + String(repeating: ",Nameless\n", count: 12) + "S,Good\n"
        let notices = try GTFSStopsDecoder.decode(Array(table.utf8)).notices
        #expect(notices.count == 12)
        #expect(notices.first.map(\.line) == Array(2...11))
        #expect(notices.first.first?.problem == "empty stop_id: row skipped")
    }
}
