import StopSheetCore
import StopSheetProtocol

/// How `station` and `stations` are written (`Answer.Station`, `.StationSummary`, `.Line`,
/// `.Platform`, `.Entrance`).
extension Station {
    /// One entry of `stations`, and the first members of the `station` detail. `lines` follows
    /// `routes` when the source describes its lines (a GTFS feed); CTA's own formats give ids
    /// only, and their answers have no `lines` member. `stepFreeNow` is the word of the station's
    /// `StepFreeNow` (its sheet's `accessibilityButton.now.stepFree`).
    func writeSummary<Sink>(_ writer: inout JSONWriter<Sink>, stepFreeNow: StepFreeNow.Verdict) {
        writer.members(Answer.StationSummary.CodingKeys.self) { writer, key in
            switch key {
            case .stationId: writer.member(key, string: id)
            case .stationName: writer.member(key, string: name)
            case .routes: writer.member(key, strings: routes.map(\.rawValue))
            case .lines: if !lines.isEmpty { writer.array(key, of: lines) { $1.write(&$0) } }
            case .stepFree: writer.member(key, word: stepFree)
            case .partial: writer.member(key, bool: partial)
            case .stepFreeNow: writer.member(key, word: stepFreeNow)
            }
        }
    }

    /// The `station` detail: the summary's members, then platforms, entrances and the sheet's
    /// advisories (given encoded, `[…]`) and `now`.
    func encodedDetail(advisories: [UInt8], now: StepFreeNow, in zone: TimeZoneRules) -> [UInt8] {
        .object { writer in
            writeSummary(&writer, stepFreeNow: now.stepFree)
            writer.members(Answer.Station.CodingKeys.self) { writer, key in
                switch key {
                case .platforms: writer.array(key, of: platforms) { $1.write(&$0) }
                case .entrances: writer.array(key, of: entrances) { $1.write(&$0) }
                case .advisories: writer.member(key, encoded: advisories)
                case .now: writer.object(key) { now.write(&$0, in: zone) }
                }
            }
        }
    }
}

extension Line {
    /// GTFS's `route_short_name`, `route_long_name`, `route_color`, `route_type`, null when absent.
    func write<Sink>(_ writer: inout JSONWriter<Sink>) {
        writer.members(Answer.Line.CodingKeys.self) { writer, key in
            switch key {
            case .id: writer.member(key, string: id.rawValue)
            case .shortName: writer.member(key, string: shortName)
            case .longName: writer.member(key, string: longName)
            case .color: writer.member(key, string: color)
            case .routeType: writer.member(key, int: routeType)
            }
        }
    }
}

extension Platform {
    func write<Sink>(_ writer: inout JSONWriter<Sink>) {
        writer.members(Answer.Platform.CodingKeys.self) { writer, key in
            switch key {
            case .stopId: writer.member(key, string: stopID)
            case .direction: writer.member(key, string: direction)
            case .routes: writer.member(key, strings: routes.map(\.rawValue))
            case .stepFree: writer.member(key, bool: stepFree)
            }
        }
    }
}

extension Entrance {
    func write<Sink>(_ writer: inout JSONWriter<Sink>) {
        writer.members(Answer.Entrance.CodingKeys.self) { writer, key in
            switch key {
            case .id: writer.member(key, string: id)
            case .name: writer.member(key, string: name)
            case .stepFree: writer.member(key, bool: stepFree)
            }
        }
    }
}
