import StopSheetCore
import Testing

@Suite struct ChicagoTimeTests {
    typealias Wall = ChicagoTime.WallClock

    static let transitions: [(Wall, Int64)] = [
        // 2015-03-08: 02:00 CST jumps to 03:00 CDT.
        (Wall(year: 2015, month: 3, day: 8, hour: 1, minute: 59, second: 59), 1_425_801_599),
        (Wall(year: 2015, month: 3, day: 8, hour: 3), 1_425_801_600),
        (Wall(year: 2015, month: 3, day: 8, hour: 2, minute: 30), 1_425_803_400),  // never shown; read as CST
        // 2015-11-01: 02:00 CDT falls back to 01:00 CST.
        (Wall(year: 2015, month: 11, day: 1, minute: 59, second: 59), 1_446_357_599),
        (Wall(year: 2015, month: 11, day: 1, hour: 1, minute: 30), 1_446_359_400),  // shown twice; first (CDT)
        (Wall(year: 2015, month: 11, day: 1, hour: 2), 1_446_364_800),
        // Before 2007: first Sunday of April to last Sunday of October.
        (Wall(year: 2006, month: 4, day: 2, hour: 1, minute: 59, second: 59), 1_143_964_799),
        (Wall(year: 2006, month: 4, day: 2, hour: 3), 1_143_964_800),
        (Wall(year: 2006, month: 10, day: 29, hour: 1, minute: 30), 1_162_103_400),
        (Wall(year: 2006, month: 10, day: 29, hour: 2), 1_162_108_800),
        (Wall(year: 2016, month: 2, day: 29, hour: 12), 1_456_768_800),
        (Wall(year: 1999, month: 12, day: 31, hour: 23, minute: 59, second: 59), 946_706_399),
    ]

    @Test(arguments: transitions)
    func instantOfWallClock(wall: Wall, seconds: Int64) {
        #expect(ChicagoTime.instant(wall) == Instant(seconds))
    }

    @Test func offsetChangesAtTheTransitionInstants() {
        #expect(ChicagoTime.utcOffset(at: Instant(1_425_801_599)) == -21_600)
        #expect(ChicagoTime.utcOffset(at: Instant(1_425_801_600)) == -18_000)
        #expect(ChicagoTime.utcOffset(at: Instant(1_446_361_199)) == -18_000)
        #expect(ChicagoTime.utcOffset(at: Instant(1_446_361_200)) == -21_600)
    }

    @Test(arguments: [
        (Int64(1_423_946_100), "2015-02-14T14:35:00-06:00"),
        (1_402_304_400, "2014-06-09T04:00:00-05:00"),
        (1_425_801_599, "2015-03-08T01:59:59-06:00"),
        (1_425_801_600, "2015-03-08T03:00:00-05:00"),
        (1_446_361_199, "2015-11-01T01:59:59-05:00"),
        (1_446_361_200, "2015-11-01T01:00:00-06:00"),
        (0, "1969-12-31T18:00:00-06:00"),
    ])
    func formats(seconds: Int64, text: String) {
        #expect(ChicagoTime.format(Instant(seconds)) == text)
        #expect(Instant(seconds).description == text)
    }

    @Test func wallClockRoundTripsEveryHourOf2015ExceptTheRepeatedOne() {
        let start: Int64 = 1_420_092_000  // 2015-01-01T00:00:00-06:00
        for hour in Int64(0)..<(365 * 24) {
            let instant = Instant(start + hour * 3600 + 1234)
            let wall = ChicagoTime.wallClock(instant)
            #expect(wall.isValid)
            let isSecondPassOfRepeatedHour = instant >= Instant(1_446_361_200) && instant < Instant(1_446_364_800)
            if isSecondPassOfRepeatedHour {
                #expect(ChicagoTime.instant(wall) == instant.adding(seconds: -3600))
            } else {
                #expect(ChicagoTime.instant(wall) == instant)
            }
        }
    }

    @Test func validity() {
        #expect(Wall(year: 2015, month: 2, day: 28).isValid)
        #expect(!Wall(year: 2015, month: 2, day: 29).isValid)
        #expect(!Wall(year: 2015, month: 4, day: 31).isValid)
        #expect(!Wall(year: 2015, month: 0, day: 1).isValid)
        #expect(!Wall(year: 2015, month: 1, day: 1, hour: 24).isValid)
        #expect(!Wall(year: 2015, month: 1, day: 1, minute: 60).isValid)
    }
}
