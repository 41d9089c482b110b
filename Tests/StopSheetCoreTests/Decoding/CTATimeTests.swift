import StopSheetCore
import StopSheetTestSupport
import Testing

@Suite struct CTATimeTests {
    @Test(arguments: [
        ("2015-02-14T14:35:00", Int64(1_423_946_100)),
        ("2015-02-14T14:35", 1_423_946_100),
        ("20150214 14:35", 1_423_946_100),
        ("20150214 14:35:00", 1_423_946_100),
        ("2014-08-15", 1_408_078_800),  // local midnight, CDT
        ("20140815", 1_408_078_800),
        ("2014-06-09T04:00:00", 1_402_304_400),
        ("  2015-02-14T14:35:00\r\n", 1_423_946_100),
        ("2015-03-08T02:30:00", 1_425_803_400),  // skipped hour, read as CST
        ("2015-11-01T01:30:00", 1_446_359_400),  // repeated hour, first (CDT) occurrence
        ("2026-03-08T02:30:00", 1_772_958_600),  // 2026's skipped hour: 03:30 CDT
        ("20260308 03:00", 1_772_956_800),  // the first daylight second
        ("20260308 01:59:59", 1_772_956_799),
        ("20261101 01:30", 1_793_514_600),  // 2026's repeated hour: CDT
        ("2026-11-01T02:00:00", 1_793_520_000),
        ("2006-04-02T02:30:00", 1_143_966_600),  // the pre-2007 rule's skipped hour
    ])
    func parsesEveryCTAForm(text: String, seconds: Int64) {
        #expect(CTATime.instant(text, in: TestZones.chicago) == Instant(seconds))
    }

    @Test(arguments: [
        "", "2015", "2015-02", "2015-02-30", "2015-13-01", "2015-02-14T24:00", "2015-02-14T14:60",
        "2015-02-14 14:35", "20150214T14:35", "2015-0214", "2015-02-14T14", "2015-02-14T14:35:00Z",
        "2015-02-14T14:35:00-06:00", "2015-02-14T14:35:00.5", "14/02/2015", "TBD", "2015-02-14T1:35",
    ])
    func rejectsWhatCTANeverSends(text: String) {
        #expect(CTATime.instant(text, in: TestZones.chicago) == nil)
    }

    @Test func leapDayOnlyInLeapYears() {
        #expect(CTATime.wallClock("2016-02-29") == WallClock(year: 2016, month: 2, day: 29))
        #expect(CTATime.wallClock("2015-02-29") == nil)
        #expect(CTATime.wallClock("2000-02-29") != nil)
        #expect(CTATime.wallClock("1900-02-29") == nil)
    }
}

@Suite struct ISO8601TimeTests {
    @Test(arguments: [
        ("2015-02-14T20:35:00Z", Int64(1_423_946_100)),
        ("2015-02-14T20:35:00z", 1_423_946_100),
        ("2015-02-14T20:35:00.123Z", 1_423_946_100),
        ("2015-02-14T20:35:00.999999+00:00", 1_423_946_100),
        ("2015-02-14T14:35:00-06:00", 1_423_946_100),
        ("2015-02-14T14:35:00-0600", 1_423_946_100),
        ("2015-07-04T12:00:00+05:30", 1_435_991_400),
        ("2015-02-14T14:35:00", 1_423_946_100),  // no offset: Chicago wall clock
        ("2015-02-14T14:35", 1_423_946_100),
        ("2015-02-14T14:35:00.5", 1_423_946_100),
        ("2015-02-14", 1_423_893_600),
        ("2014-06-09T04:00:00", 1_402_304_400),
        ("2026-03-08T02:30:00", 1_772_958_600),  // no offset, in the skipped hour: 03:30 CDT
        ("2026-11-01T01:30:00", 1_793_514_600),  // no offset, in the repeated hour: CDT
        ("2026-11-01T01:30:00-06:00", 1_793_518_200),  // the offset says which
    ])
    func parses(text: String, seconds: Int64) {
        #expect(ISO8601Time.instant(text, localTime: TestZones.chicago) == Instant(seconds))
    }

    @Test(arguments: [
        "", "2015-02-14T20:35:00Zjunk", "2015-02-14T20:35:00+25:00", "2015-02-14T20:35:00+05:60",
        "2015-02-14T20:35:00.", "2015-02-14T20:35:00+5", "20150214 14:35", "2015-02-14 20:35:00Z",
        "2015-02-30T00:00:00Z", "2015-02-14T20:35:00 Z", "yesterday",
    ])
    func rejects(text: String) {
        #expect(ISO8601Time.instant(text, localTime: TestZones.chicago) == nil)
    }
}
