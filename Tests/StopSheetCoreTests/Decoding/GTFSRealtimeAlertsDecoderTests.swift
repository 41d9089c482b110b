import StopSheetCore
import StopSheetTestSupport
import Testing

/// GTFS-realtime rules on small hand-built messages (the field numbers of gtfs-realtime.proto).
/// The feeds of the real capture, built by an independent encoder, are checked end to end in
/// StopSheetDaemonTests/GTFSRealtimeIntegrationTests.
@Suite struct GTFSRealtimeAlertsDecoderTests {
    static let header = Wire.field(1, Wire.field(1, "2.0"))

    static func feed(_ alerts: [(id: String, alert: [UInt8])]) -> [UInt8] {
        header + alerts.flatMap { Wire.field(2, Wire.field(1, $0.id) + Wire.field(5, $0.alert)) }
    }

    static func selector(_ fields: [UInt8]) -> [UInt8] { Wire.field(5, fields) }
    static func text(_ number: Int, _ translations: [(String, String?)]) -> [UInt8] {
        Wire.field(number, translations.flatMap { text, language in Wire.field(1, Wire.field(1, text) + (language.map { Wire.field(2, $0) } ?? [])) })
    }
    static func period(_ start: UInt64?, _ end: UInt64?) -> [UInt8] {
        Wire.field(1, (start.map { Wire.field(1, varint: $0) } ?? []) + (end.map { Wire.field(2, varint: $0) } ?? []))
    }

    /// `header.timestamp` (field 3) is the feed's time of making; absent or 0 (the field's
    /// default) is none; a header field of the wrong wire type fails as any known field does.
    @Test func theHeaderTimestampIsWhenTheFeedWasMade() throws {
        let alert = (id: "1", alert: Self.selector(Wire.field(3, varint: 1)))
        func made(_ header: [UInt8]) throws -> DecodedAlerts {
            try GTFSRealtimeAlertsDecoder.decodeFeed(Wire.field(1, header) + Array(Self.feed([alert]).dropFirst(Self.header.count)))
        }
        let stamped = try made(Wire.field(1, "2.0") + Wire.field(3, varint: 1_514_034_019))
        #expect(stamped.producedAt == Instant(secondsSince1970: 1_514_034_019) && stamped.alerts.map(\.id) == ["1"])
        #expect(try made(Wire.field(1, "2.0")).producedAt == nil)
        #expect(try made(Wire.field(3, varint: 0)).producedAt == nil)
        #expect(throws: DecodingFailure.self) { try made(Wire.field(3, "1514034019")) }
    }

    @Test func selectorsAreIntersections() throws {
        let negative = Wire.field(3, varint: UInt64(bitPattern: -1))
        let cases: [([UInt8], [AlertScope])] = [
            (Wire.field(3, varint: 1), [.routeType(1)]),
            (Wire.field(3, varint: 0), [.routeType(0)]),
            (Wire.field(3, varint: 2), [.routeType(2)]),
            (Wire.field(3, varint: 109), [.routeType(109)]),
            (Wire.field(1, "CTA"), [.agency("CTA")]),
            (Wire.field(2, "Red"), [.route(.red)]),
            // Exactly as spelled: the station source's route_id.
            (Wire.field(2, "Pnk") + Wire.field(3, varint: 1), [.route(RouteID("Pnk"))]),
            (Wire.field(2, "Green-B") + Wire.field(3, varint: 0), [.route(RouteID("Green-B"))]),
            (Wire.field(2, "CR-Worcester") + Wire.field(3, varint: 2), [.route(RouteID("CR-Worcester"))]),
            (Wire.field(2, "Silver") + Wire.field(3, varint: 1), [.route(RouteID("Silver"))]),
            (Wire.field(4, Wire.field(1, "trip") + Wire.field(5, "Brn")), [.route(.brown)]),
            (Wire.field(5, "40380") + Wire.field(2, "Blue"), [.station("40380")]),
            (Wire.field(5, "30374"), [.station("30374")]),
            // A route without a route_type is kept as spelled: it reaches a station only if the
            // station source runs a train line of that id.
            (Wire.field(2, "22"), [.route(RouteID("22"))]),
            (Wire.field(2, "22") + Wire.field(3, varint: 3), []),
            (Wire.field(2, "Boat-F1") + Wire.field(3, varint: 4), []),
            (Wire.field(3, varint: 4), []),
            (Wire.field(3, varint: 6), []),
            (Wire.field(3, varint: 11), []),
            (Wire.field(5, "40380") + Wire.field(3, varint: 3), []),
            (Wire.field(2, "Red") + negative, []),
            ([], []),
        ]
        for (fields, scopes) in cases {
            let alerts = try AlertsDecoder.decode(Self.feed([("a", Self.selector(fields))]), chicago: TestZones.chicago)
            #expect(alerts.first?.scopes ?? [] == scopes, "\(fields)")
            #expect(alerts.count == (scopes.isEmpty ? 0 : 1))
        }
    }

    @Test func periodsGiveTheKindOverTime() throws {
        let red = Self.selector(Wire.field(2, "Red"))
        let alerts = try AlertsDecoder.decode(Self.feed([
            ("two", red + Self.period(100, 200) + Self.period(300, 400)),
            ("none", red),
            ("open", red + Self.period(nil, 250)),
        ]), chicago: TestZones.chicago)
        let two = alerts[0]
        #expect(two.start == Instant(100) && two.end == Instant(400))
        #expect([50, 100, 199, 200, 299, 300, 399].map { two.kind(at: Instant($0)) } == [.planned, .active, .active, .planned, .planned, .active, .active])
        #expect(two.kind(at: Instant(400)) == nil)
        #expect(two.nextChange(after: Instant(150)) == Instant(200))
        #expect(two.nextChange(after: Instant(250)) == Instant(300))
        #expect(alerts[1].kind(at: Instant(0)) == .active && alerts[1].start == nil && alerts[1].end == nil)
        #expect(alerts[2].start == nil && alerts[2].kind(at: Instant(0)) == .active && alerts[2].kind(at: Instant(250)) == nil)
    }

    @Test func translationsByLanguageThenUntaggedThenFirst() throws {
        let red = Self.selector(Wire.field(2, "Red"))
        let feed = Self.feed([
            ("exact", red + Self.text(10, [("Hola", "es"), ("Hello", "en"), ("Untagged", nil)])),
            ("primary", red + Self.text(10, [("Hola", "es"), ("Howdy", "en-US")])),
            ("untagged", red + Self.text(10, [("Hola", "es"), ("Plain", nil)])),
            ("first", red + Self.text(10, [("Hola", "es"), ("Bonjour", "fr")])),
        ])
        #expect(try AlertsDecoder.decode(feed, chicago: TestZones.chicago).map(\.headline) == ["Hello", "Howdy", "Plain", "Hola"])
        #expect(try AlertsDecoder.decode(feed, reading: FeedReading(language: "es"), chicago: TestZones.chicago).map(\.headline) == ["Hola", "Hola", "Hola", "Hola"])
        #expect(try AlertsDecoder.decode(feed, reading: FeedReading(language: "fr"), chicago: TestZones.chicago).map(\.headline) == ["Untagged", "Hola", "Plain", "Bonjour"])
    }

    @Test func detailsAndSkippedEntities() throws {
        let alert = Self.selector(Wire.field(5, "41700")) + Wire.field(6, varint: 10) + Wire.field(7, varint: 11) + Wire.field(14, varint: 3)
            + Self.text(8, [("https://example.org", nil)]) + Wire.field(7, varint: 99)
        let body = Self.header + Wire.field(2, Wire.field(1, "a") + Wire.field(5, alert))
            + Wire.field(2, Wire.field(1, "deleted") + Wire.field(2, varint: 1) + Wire.field(5, alert))
            + Wire.field(2, Wire.field(1, "trip-update") + Wire.field(3, Wire.field(1, Wire.field(1, "t"))))
        let alerts = try AlertsDecoder.decode(body, chicago: TestZones.chicago)
        #expect(alerts.map(\.id) == ["a"])
        // An effect number the reference does not define reads as absent (the later field wins).
        #expect(alerts[0].details == AlertDetails(url: "https://example.org", cause: "CONSTRUCTION", effect: nil, severityLevel: "WARNING"))
    }

    @Test func protobufIsToldFromJSONBeforeParsing() throws {
        // Pretty-printed JSON starts with the same byte as a FeedMessage's header.
        let json = "\n{\n  \"alerts\": []\n}\n"
        #expect(!GTFSRealtimeAlertsDecoder.isFeedMessage(bytes(json)))
        #expect(try AlertsDecoder.decode(bytes(json), chicago: TestZones.chicago) == [])
        #expect(GTFSRealtimeAlertsDecoder.isFeedMessage(Self.header))
        #expect(try AlertsDecoder.decode(Self.header, chicago: TestZones.chicago) == [])
        #expect(GTFSRealtimeAlertsDecoder.isFeedMessage(Wire.field(2, Wire.field(1, "x"))))
    }

    @Test func malformedFeedsAreTypedFailures() {
        let red = Self.selector(Wire.field(2, "Red"))
        let whole = Self.feed([("a", red)])
        #expect(failure { try AlertsDecoder.decode(Array(whole.dropLast()), chicago: TestZones.chicago) } == .invalidProtobuf(.truncated(offset: 8)))
        #expect(failure { try AlertsDecoder.decode(Self.header + Wire.field(2, Wire.field(5, red)), chicago: TestZones.chicago) }
            == .malformed(path: "entity[0].id", reason: "missing"))
        #expect(failure { try AlertsDecoder.decode(Self.header + Wire.field(2, Wire.field(1, "a") + Wire.field(5, varint: 1)), chicago: TestZones.chicago) }
            == .malformed(path: "entity[0].alert", reason: "wire type 0, expected 2"))
        #expect(failure { try AlertsDecoder.decode(Self.feed([("a", red + Self.text(10, [("\u{FFFD}", nil)]).map { $0 == 0xEF ? 0xFF : $0 })]), chicago: TestZones.chicago) }
            == .malformed(path: "entity[0].alert.header_text.translation[0].text", reason: "not UTF-8"))
        #expect(failure { try AlertsDecoder.decode(Self.header + Array(repeating: Wire.field(2, []), count: 11).flatMap { $0 }, chicago: TestZones.chicago, limits: DecodingLimits(maxItems: 10)) }
            == .tooMany(count: 11, limit: 10))
    }
}
