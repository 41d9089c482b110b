import Foundation
import StopSheetCore
import Testing

/// The contract of docs/stop-sheet.md as a client meets it: a demo daemon asked what a stop sheet
/// asks, each answer held to the spec's shape and exact strings. The fixtures' own tests check the
/// rules one by one; this checks that the running binary keeps the promise whole.
@Suite struct ContractIntegrationTests {
    static let kinds = ["Active train alert: ", "Planned train alert: ", "Train alert: "]
    static let sentences = [("Step-free access is available at ", "."), ("CTA currently reports no step-free access at ", "."),
                            ("Accessibility information is currently unavailable for ", ".")]

    @Test func aTrainSheetKeepsTheSpecsShapeAndWords() throws {
        let daemon = try DaemonProcess(["--demo"])
        let health = try daemon.result("health")
        #expect(health["alerts"]?["loaded"] == true && health["stations"]?["loaded"] == true, "health: \(health)")

        let answer = try daemon.client().request(#"{"jsonrpc":"2.0","id":"x-40380","method":"stopSheet","params":{"stopId":"40380"}}"#)
        #expect(answer["jsonrpc"] == "2.0" && answer["id"] == "x-40380", "the id comes back as sent: \(answer)")
        let sheet = try #require(answer["result"], "no result in \(answer)")
        #expect(sheet["stopType"] == "train" && sheet["stationId"] == "40380" && sheet["stationName"] == "Clark/Lake", "sheet: \(sheet)")

        let glyph = try #require(sheet["alertGlyph"]?.objectValue, "Clark/Lake has live alerts in the demo data: \(sheet)")
        let count = try #require(glyph["count"]?.intValue)
        #expect(glyph["accessibilityLabel"]?.stringValue == (count == 1 ? "1 train service alert" : "\(count) train service alerts"))
        let dialog = try #require(glyph["alert"])
        #expect(dialog["title"] == "Train service alerts" && dialog["buttons"] == ["Close"], "dialog: \(dialog)")
        let items = (dialog["message"]?.stringValue ?? "").components(separatedBy: "\n\n")
        #expect(items.count == count, "\(items.count) dialog items for a count of \(count)")
        for item in items {
            #expect(Self.kinds.contains { item.hasPrefix($0) && item.count > $0.count }, "an item that does not start with its kind: \(item.prefix(80))")
        }

        let button = try #require(sheet["accessibilityButton"], "a train sheet always has the accessibility button: \(sheet)")
        #expect(button["accessibilityLabel"] == "Accessibility information" && button["symbol"] == "figure.roll", "button: \(button)")
        #expect(["good", "warn", "muted"].contains(button["tone"]?.stringValue ?? ""), "tone: \(String(describing: button["tone"]))")
        #expect(["available", "none", "unknown"].contains(button["stepFree"]?.stringValue ?? ""), "stepFree: \(String(describing: button["stepFree"]))")
        let accessibility = try #require(button["alert"])
        #expect(accessibility["title"] == "Accessibility" && accessibility["buttons"] == ["Close"], "dialog: \(accessibility)")
        let message = accessibility["message"]?.stringValue ?? ""
        #expect(Self.sentences.contains { message.hasPrefix($0.0) && message.hasSuffix($0.1) && message.count > $0.0.count + 1 },
                "not one of the three sentences: \(message)")
    }

    @Test func aBusSheetShowsNeitherGlyphNorButton() throws {
        let daemon = try DaemonProcess(["--demo"])
        let sheet = try daemon.result("stopSheet", ["stopId": "1106", "stopType": "bus"])
        #expect(sheet["stopType"] == "bus", "sheet: \(sheet)")
        #expect(sheet["alertGlyph"] == .null && sheet["accessibilityButton"] == .null, "a bus sheet shows nothing: \(sheet)")
    }

    @Test func mistakesGetTheirJSONRPCCodes() throws {
        let daemon = try DaemonProcess(["--demo"])
        let unknown = try daemon.call("nope")
        #expect(unknown["error"]?["code"] == -32601, "unknown method: \(unknown)")
        let missing = try daemon.call("stopSheet", [:])
        #expect(missing["error"]?["code"] == -32602, "missing stopId: \(missing)")
    }
}
