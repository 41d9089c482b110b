import StopSheetCore
import StopSheetTestSupport
import Testing

/// The zones as the system's time-zone database has them (tzdata, read by `TZifDecoder`). The
/// expected instants are the law's, checked against Python's `zoneinfo`; none depends on the
/// test machine's `TZ`.
@Suite struct TimeZoneRulesTests {
    /// A change of offset: the last second before it and the first with the new offset.
    struct Transition: Sendable, CustomTestStringConvertible {
        var zone: String
        var at: Int64
        var before: Int
        var after: Int
        var testDescription: String { "\(zone) at \(at): \(before) → \(after)" }
    }

    static let transitions = [
        // 2026, both ways, north and south.
        Transition(zone: "America/Chicago", at: 1_772_956_800, before: -21_600, after: -18_000),
        Transition(zone: "America/Chicago", at: 1_793_516_400, before: -18_000, after: -21_600),
        Transition(zone: "America/New_York", at: 1_772_953_200, before: -18_000, after: -14_400),
        Transition(zone: "America/New_York", at: 1_793_512_800, before: -14_400, after: -18_000),
        Transition(zone: "Europe/London", at: 1_774_746_000, before: 0, after: 3600),
        Transition(zone: "Europe/London", at: 1_792_890_000, before: 3600, after: 0),
        Transition(zone: "Australia/Sydney", at: 1_775_318_400, before: 39_600, after: 36_000),
        Transition(zone: "Australia/Sydney", at: 1_791_043_200, before: 36_000, after: 39_600),
        // The 2007 US change: first Sunday of April to last of October, then second Sunday of
        // March to first of November.
        Transition(zone: "America/Chicago", at: 1_143_964_800, before: -21_600, after: -18_000),
        Transition(zone: "America/Chicago", at: 1_162_105_200, before: -18_000, after: -21_600),
        Transition(zone: "America/Chicago", at: 1_173_600_000, before: -21_600, after: -18_000),
        Transition(zone: "America/Chicago", at: 1_194_159_600, before: -18_000, after: -21_600),
        // 2040: past the file's listed transitions, from its footer's rule.
        Transition(zone: "America/Chicago", at: 2_215_065_600, before: -21_600, after: -18_000),
        Transition(zone: "America/Chicago", at: 2_235_625_200, before: -18_000, after: -21_600),
        Transition(zone: "Australia/Sydney", at: 2_216_822_400, before: 39_600, after: 36_000),
        Transition(zone: "Australia/Sydney", at: 2_233_152_000, before: 36_000, after: 39_600),
    ]

    @Test(arguments: transitions)
    func offsetChangesAtTheTransition(_ transition: Transition) {
        let zone = TestZones.rules(transition.zone)
        #expect(zone.utcOffset(at: Instant(transition.at - 1)) == transition.before)
        #expect(zone.utcOffset(at: Instant(transition.at)) == transition.after)
    }

    @Test func the2006DatesAreStandardTimeIn2007AndTheOtherWayRound() {
        let chicago = TestZones.chicago
        // 2006-04-02 noon is daylight time, 2007-04-01 (a week before that rule's day) too, but
        // 2006-03-12 noon (the later rule's day, a year early) is still standard time.
        #expect(chicago.iso8601(chicago.instant(WallClock(year: 2006, month: 4, day: 2, hour: 12))) == "2006-04-02T12:00:00-05:00")
        #expect(chicago.iso8601(chicago.instant(WallClock(year: 2006, month: 3, day: 12, hour: 12))) == "2006-03-12T12:00:00-06:00")
        #expect(chicago.iso8601(chicago.instant(WallClock(year: 2007, month: 3, day: 11, hour: 12))) == "2007-03-11T12:00:00-05:00")
        #expect(chicago.iso8601(chicago.instant(WallClock(year: 2007, month: 10, day: 30, hour: 12))) == "2007-10-30T12:00:00-05:00")
        #expect(chicago.iso8601(chicago.instant(WallClock(year: 2006, month: 10, day: 30, hour: 12))) == "2006-10-30T12:00:00-06:00")
    }

    @Test func aZoneThatNeverChanges() {
        let tokyo = TestZones.rules("Asia/Tokyo")
        for seconds in stride(from: Int64(1_420_070_400), to: 2_524_608_000, by: 86_400 * 13) {
            #expect(tokyo.utcOffset(at: Instant(seconds)) == 32_400)
        }
        #expect(tokyo.iso8601(Instant(1_772_956_800)) == "2026-03-08T17:00:00+09:00")
    }

    @Test func southernDaylightTimeSpansTheNewYear() {
        let sydney = TestZones.rules("Australia/Sydney")
        #expect(sydney.iso8601(Instant(1_798_722_000)) == "2027-01-01T00:00:00+11:00")
        #expect(sydney.iso8601(Instant(1_782_828_000)) == "2026-07-01T00:00:00+10:00")
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
    func formatsChicago(seconds: Int64, text: String) {
        #expect(TestZones.chicago.iso8601(Instant(seconds)) == text)
    }

    @Test func formatsOtherZonesWithTheirOffsets() {
        #expect(TestZones.rules("America/New_York").iso8601(Instant(1_772_953_200)) == "2026-03-08T03:00:00-04:00")
        #expect(TestZones.rules("America/New_York").iso8601(Instant(1_772_953_199)) == "2026-03-08T01:59:59-05:00")
        #expect(TestZones.rules("Europe/London").iso8601(Instant(1_792_890_000)) == "2026-10-25T01:00:00+00:00")
        #expect(TestZones.rules("Asia/Kolkata").iso8601(Instant(1_435_991_400)) == "2015-07-04T12:00:00+05:30")
        #expect(TimeZoneRules.utc.iso8601(Instant(0)) == "1970-01-01T00:00:00+00:00")
    }

    /// The year as Swift spells an Int (no padding, a sign when negative), every other field in
    /// two digits at least, and `Z` in no known zone.
    @Test func spellsEveryYearAndNoKnownZone() {
        #expect(TimeZoneRules.notKnown.iso8601(Instant(1_423_946_100)) == "2015-02-14T20:35:00Z")
        #expect(WallClock(year: 999, month: 1, day: 2, hour: 3, minute: 4, second: 5).iso8601 == "999-01-02T03:04:05")
        #expect(WallClock(year: 12_345, month: 12, day: 31, hour: 23, minute: 59, second: 60).iso8601 == "12345-12-31T23:59:60")
        #expect(WallClock(year: -44, month: 3, day: 15, hour: 10).iso8601 == "-44-03-15T10:00:00")
        // Python's zoneinfo: 2026-03-08T05:30:00-02:30, daylight time begun.
        #expect(TestZones.rules("America/St_Johns").iso8601(Instant(1_772_956_800)) == "2026-03-08T05:30:00-02:30")
    }

    typealias Wall = WallClock

    /// Wall clocks around the transitions: the gap read with the offset before it, the repeated
    /// hour as its first occurrence.
    static let wallClocks: [(String, Wall, Int64)] = [
        ("America/Chicago", Wall(year: 2026, month: 3, day: 8, hour: 1, minute: 59, second: 59), 1_772_956_799),
        ("America/Chicago", Wall(year: 2026, month: 3, day: 8, hour: 3), 1_772_956_800),
        ("America/Chicago", Wall(year: 2026, month: 3, day: 8, hour: 2, minute: 30), 1_772_958_600),  // skipped; 03:30 CDT
        ("America/Chicago", Wall(year: 2026, month: 11, day: 1, hour: 1, minute: 30), 1_793_514_600),  // twice; CDT
        ("America/Chicago", Wall(year: 2026, month: 11, day: 1, hour: 2), 1_793_520_000),
        ("America/Chicago", Wall(year: 2006, month: 4, day: 2, hour: 2, minute: 30), 1_143_966_600),
        ("America/Chicago", Wall(year: 2015, month: 2, day: 14, hour: 14, minute: 35), 1_423_946_100),
        ("America/New_York", Wall(year: 2026, month: 3, day: 8, hour: 2, minute: 30), 1_772_955_000),
        ("America/New_York", Wall(year: 2026, month: 11, day: 1, hour: 1, minute: 30), 1_793_511_000),
        ("Europe/London", Wall(year: 2026, month: 3, day: 29, hour: 1, minute: 30), 1_774_747_800),  // skipped; 02:30 BST
        ("Europe/London", Wall(year: 2026, month: 10, day: 25, hour: 1, minute: 30), 1_792_888_200),  // twice; BST
        ("Australia/Sydney", Wall(year: 2026, month: 10, day: 4, hour: 2, minute: 30), 1_791_045_000),  // skipped; 03:30 AEDT
        ("Australia/Sydney", Wall(year: 2026, month: 4, day: 5, hour: 2, minute: 30), 1_775_316_600),  // twice; AEDT
        ("Asia/Tokyo", Wall(year: 2026, month: 3, day: 8, hour: 2, minute: 30), 1_772_904_600),
    ]

    @Test(arguments: wallClocks)
    func instantOfWallClock(zone: String, wall: Wall, seconds: Int64) {
        #expect(TestZones.rules(zone).instant(wall) == Instant(seconds))
    }

    @Test(arguments: ["America/Chicago", "Europe/London", "Australia/Sydney"])
    func wallClockRoundTripsEveryHourOf2026ExceptTheRepeatedOne(zone: String) {
        let rules = TestZones.rules(zone)
        let start: Int64 = 1_767_225_600  // 2026-01-01T00:00:00Z
        var repeated = 0
        for hour in Int64(0)..<(365 * 24) {
            let instant = Instant(start + hour * 3600 + 1234)
            let wall = rules.wallClock(instant)
            #expect(wall.isValid)
            let hourEarlier = instant.adding(seconds: -3600)
            if rules.wallClock(hourEarlier) == wall {
                repeated += 1
                #expect(rules.instant(wall) == hourEarlier)
            } else {
                #expect(rules.instant(wall) == instant)
            }
        }
        #expect(repeated == 1)
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
