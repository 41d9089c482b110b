import StopSheetCore
import StopSheetProtocol
import Testing
@testable import StopSheetDaemon

/// A snapshot's sheet as an answer gives it: a train sheet with `sampleData`, a bus sheet as it is.
extension EncodedSheet {
    var sheet: [UInt8] { PreEncoded(self, data: sampleData.encoded).bytes }
}

/// The `data` tests fill a snapshot's sheets with: nothing loaded, at the epoch.
let sampleData: SheetData = {
    let freshness = DataFreshness(lastGoodLoad: nil, now: Instant(secondsSince1970: 0), staleAfterSeconds: 300)
    return SheetData(alerts: freshness, stations: freshness, facilities: freshness, zone: .utc)
}()

/// A train sheet's members in the protocol's order, read off its type through its schema (not
/// written out here, so a member the type gains is asked of the bytes at once): the members every
/// sheet has, and those the train variant has of the ones left out when absent.
let trainSheetKeys: [String] = {
    var schemas = AnswerSchemas()
    _ = try! schemas.reference(Answer.Sheet.self)
    let sheet = schemas.components[AnswerSchemas.name(Answer.Sheet.self)]!
    let names = { (list: JSON?) in list?.arrayValue?.compactMap(\.stringValue) ?? [] }
    let train = sheet["allOf"]?.arrayValue?.first { $0["if"]?["properties"]?["stopType"]?["const"] == .string(StopType.train.rawValue) }
    let members = names(sheet["required"]) + names(train?["then"]?["required"])
    return (sheet["properties"]?.objectValue?.keys ?? []).filter(members.contains)
}()

/// Whether a sheet's bytes (as the daemon writes them, with `sampleData`) say exactly what the
/// core's `StopSheet` says: decoded through the protocol's types, every member compared with the
/// core value it comes from, and the members in the protocol's order with none undeclared.
func expectSheet(_ bytes: [UInt8]?, matches sheet: StopSheet, in zone: TimeZoneRules, _ comment: Comment? = nil,
                 sourceLocation: SourceLocation = #_sourceLocation) {
    do {
        let bytes = try #require(bytes, comment, sourceLocation: sourceLocation)
        let json = try JSONParser.parse(bytes)
        #expect(json.objectValue?.keys == trainSheetKeys, comment, sourceLocation: sourceLocation)
        #expect(json["accessibilityButton"]?.objectValue?.keys == Answer.AccessibilityButton.CodingKeys.allCases.map(\.rawValue),
                comment, sourceLocation: sourceLocation)
        // `reason` only when the pathways cannot say (it is omittable).
        #expect(json["accessibilityButton"]?["now"]?.objectValue?.keys
                    == ["stepFree", "basis", "complete", "platforms", "outages"] + (sheet.accessibilityButton.now.reason == nil ? [] : ["reason"]), comment,
                sourceLocation: sourceLocation)
        let decoded = try AnswerDecoder.decode(Answer.Sheet.self, from: json)
        #expect(decoded.stopType == .train && decoded.stopId == nil && decoded.data == sampleData.answer, comment, sourceLocation: sourceLocation)
        #expect(decoded.stationId == sheet.stationID && decoded.stationName == sheet.stationName, comment, sourceLocation: sourceLocation)
        #expect(decoded.alertGlyph.value.map(Glyph.init) == sheet.alertGlyph.map(Glyph.init), comment, sourceLocation: sourceLocation)
        let button = try #require(decoded.accessibilityButton.value, comment, sourceLocation: sourceLocation)
        let core = sheet.accessibilityButton
        #expect(button.tone == core.tone && button.stepFree == core.stepFree && button.stepFreeFrom == core.stepFreeFrom
                && button.accessibilityLabel == core.accessibilityLabel
                && button.symbol == core.symbol && Dialog(button.alert) == Dialog(core.alert), comment, sourceLocation: sourceLocation)
        #expect(button.advisories.map { AlertFacts($0) } == core.advisories.map { AlertFacts($0, zone) }, comment, sourceLocation: sourceLocation)
        #expect(NowFacts(button.now) == NowFacts(core.now), comment, sourceLocation: sourceLocation)
        #expect(decoded.alerts?.map { AlertFacts($0) } == sheet.alerts.map { AlertFacts($0, zone) }, comment, sourceLocation: sourceLocation)
    } catch {
        Issue.record(error, comment, sourceLocation: sourceLocation)
    }
}

private struct Dialog: Equatable {
    var title, message: String
    var buttons: [String]
    init(_ dialog: Answer.Dialog) { (title, message, buttons) = (dialog.title, dialog.message, dialog.buttons) }
    init(_ dialog: StopSheet.AlertDialog) { (title, message, buttons) = (dialog.title, dialog.message, dialog.buttons) }
}

private struct Glyph: Equatable {
    var count: Int
    var label: String
    var dialog: Dialog
    init(_ glyph: Answer.AlertGlyph) { (count, label, dialog) = (glyph.count, glyph.accessibilityLabel, Dialog(glyph.alert)) }
    init(_ glyph: StopSheet.AlertGlyph) { (count, label, dialog) = (glyph.count, glyph.accessibilityLabel, Dialog(glyph.alert)) }
}

/// `accessibilityButton.now`'s members as strings, from either side.
struct NowFacts: Equatable {
    var verdict: [String]
    var platforms: [[String?]]
    var outages: [[String?]]
    init(_ now: Answer.StepFreeNow) {
        verdict = [now.stepFree.rawValue, now.basis.rawValue, String(now.complete), now.reason ?? "-"]
        platforms = now.platforms.map { [$0.stopId, $0.name, $0.entry.value.map(String.init), $0.exit.value.map(String.init)] }
        outages = now.outages.map { [$0.alertId, $0.facility.rawValue, $0.facilityId.value, $0.pathways.joined(separator: ",")] }
    }
    init(_ now: StepFreeNow) {
        verdict = [now.stepFree.rawValue, now.basis.rawValue, String(now.complete), now.reason?.rawValue ?? "-"]
        platforms = now.platforms.map { [$0.stopID, $0.name, $0.entry.map(String.init), $0.exit.map(String.init)] }
        outages = now.outages.map { [$0.alertID ?? Answer.FacilityOutage.noAlert, $0.facility.rawValue, $0.facilityID, $0.pathways.joined(separator: ",")] }
    }
}

/// An alert's or an advisory's members as strings, from either side.
private struct AlertFacts: Equatable {
    var facts: [String?]
    init(_ alert: Answer.Alert) {
        facts = [alert.id, alert.kind.rawValue, alert.headline, alert.description, alert.start.value, alert.end.value,
                 alert.scopes.map { "\($0.type.rawValue) \($0.id ?? "-") \($0.routeType.map(String.init) ?? "-")" }.joined(separator: ","),
                 alert.impact.value, alert.severity.value.map(String.init), alert.major.value.map(String.init), alert.url.value, alert.category.value, alert.cause.value,
                 alert.effect.value, alert.severityLevel.value]
    }
    init(_ live: LiveAlert, _ zone: TimeZoneRules) {
        let (alert, details) = (live.alert, live.alert.details)
        facts = [alert.id, live.kind.rawValue, alert.headline, alert.description, alert.start.map(zone.iso8601), alert.end.map(zone.iso8601),
                 alert.scopes.map { scope -> String in
                     switch scope {
                     case .systemwide: "systemwide - -"
                     case .route(let route): "route \(route.rawValue) -"
                     case .station(let id): "station \(id) -"
                     case .routeType(let type): "routeType - \(type)"
                     case .agency(let id): "agency \(id) -"
                     }
                 }.joined(separator: ","),
                 details.impact, details.severity.map(String.init), details.major.map(String.init), details.url, details.category,
                 details.cause, details.effect, details.severityLevel]
    }
    init(_ advisory: Answer.Advisory) {
        facts = [advisory.alertId, advisory.kind.rawValue, advisory.headline, advisory.description, advisory.start.value, advisory.end.value, String(advisory.restored)]
    }
    init(_ advisory: AccessibilityAdvisory, _ zone: TimeZoneRules) {
        let alert = advisory.alert.alert
        facts = [alert.id, advisory.alert.kind.rawValue, alert.headline, alert.description, alert.start.map(zone.iso8601), alert.end.map(zone.iso8601),
                 String(advisory.restored)]
    }
}
