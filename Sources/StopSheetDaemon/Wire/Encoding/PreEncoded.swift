import StopSheetCore
import StopSheetProtocol

/// The JSON of an `Encodes` value, encoded before: written as it is wherever an answer takes it
/// (`AnswerEncoder` splices it). Made only by encoding such a value, by joining such values into
/// an array, or by completing a snapshot's sheet with its `data` — all in this file, the one place
/// that puts bytes together — so its bytes are always what an `Encodes` encodes to. A method's
/// handler answers with one of its `Result` (`MethodReply`).
public struct PreEncoded<Encodes: Sendable>: Encodable, Sendable, Equatable {
    let bytes: [UInt8]

    init(_ value: Encodes) where Encodes: Encodable { bytes = AnswerEncoding.encode(value) }

    /// A form of an `Encodes` with members encoded before.
    init<Form: AnswerForm>(_ form: Form) where Form.Encodes == Encodes { bytes = AnswerEncoding.encode(form) }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    /// An array of values each encoded before.
    init<Element>(_ elements: [PreEncoded<Element>]) where Encodes == [Element] {
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        for (index, element) in elements.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(contentsOf: element.bytes)
        }
        bytes.append(UInt8(ascii: "]"))
        self.init(bytes: bytes)
    }

    /// Spliced as it is by `AnswerEncoder`; through any other encoder, its bytes read back into the
    /// value they encode, member by member in their order (`EncodableJSON`).
    public func encode(to encoder: any Encoder) throws {
        if let splicing = encoder as? any SplicingEncoder { return splicing.splice(bytes) }
        try EncodableJSON(try JSONParser.parse(bytes)).encode(to: encoder)
    }
}

/// An answer type written with some of its members encoded before (a snapshot's alerts, `now`,
/// sheets and health). Each form declares `typealias CodingKeys = Answer.….CodingKeys`, so a
/// member added to the answer and missing in the form does not compile ("CodingKey case … does
/// not match any stored properties"); the protocol itself does not require that alias. A member's
/// type is meant to be the answer's, `PreEncoded` of it, or one that encodes the same
/// (`OrderedMembers` for a `[String: V]`); the compiler does not check it, the tests that read
/// each answer back as its type do.
protocol AnswerForm: Encodable {
    associatedtype Encodes: AnswerObject
}

extension PreEncoded where Encodes == JSON {
    /// `rpc.discover`'s document, which is JSON, not an answer type.
    init(document: JSON) { bytes = document.encoded }
}

extension PreEncoded where Encodes == Answer.Sheet {
    /// `sheet` completed: a train sheet with `data`, its last member (a test holds it last in
    /// `CodingKeys`), after the members a snapshot encoded; a bus sheet as it is.
    init(_ sheet: EncodedSheet, data: PreEncoded<Answer.SheetData>) {
        var bytes: [UInt8] = []
        for piece in sheet.pieces { bytes.append(contentsOf: piece) }
        if sheet.takesData {
            bytes.append(UInt8(ascii: ","))
            bytes.write(string: Answer.Sheet.CodingKeys.data.rawValue)
            bytes.append(UInt8(ascii: ":"))
            bytes.append(contentsOf: data.bytes)
        }
        bytes.append(UInt8(ascii: "}"))
        self.init(bytes: bytes)
    }
}

/// A `stopSheet` result without its `data`, which moves with the clock while these bytes move
/// only with the data: what a snapshot keeps per station, what push compares, and what each
/// answer completes (`PreEncoded(_:data:)`). `{` and the members, without the closing brace, in
/// pieces: an alert array shared by a line's stations is held by reference, not copied into each.
struct EncodedSheet: Sendable, Equatable {
    let pieces: [[UInt8]]
    /// A train sheet takes `data`; a bus sheet has none.
    let takesData: Bool

    /// A train sheet, its alerts' members and `now` encoded before (a snapshot encodes each once).
    /// `from`: where `stepFree` came from (the station data or its map).
    init(stationID: String, stationName: String, stepFree: StepFreeStatus, from: StepFreeNow.Basis, agency: String, alerts: EncodedAlertMembers,
         now: PreEncoded<Answer.StepFreeNow>) {
        let button = StopSheet.accessibilityButton(stepFree, station: stationName, agency: agency, from: from)
        let members = TrainSheetMembers(stationId: stationID, stationName: stationName, alertGlyph: alerts.glyph,
                                        accessibilityButton: ButtonMembers(tone: button.tone, stepFree: button.stepFree, stepFreeFrom: button.stepFreeFrom,
                                                                           accessibilityLabel: button.accessibilityLabel,
                                                                           symbol: button.symbol, alert: button.alert.answer, advisories: alerts.advisories,
                                                                           now: now),
                                        alerts: alerts.alerts)
        pieces = AnswerEncoding.openObject(members)
        takesData = true
    }

    /// A bus stop's sheet: nothing at all, ever.
    init(busStopID stopID: String) {
        pieces = AnswerEncoding.openObject(Answer.Sheet(stopType: .bus, stopId: stopID, stationId: nil, stationName: nil, alertGlyph: nil,
                                                        accessibilityButton: nil, alerts: nil, data: nil))
        takesData = false
    }
}

/// `Answer.Sheet` of a train station, with what a snapshot shares between stations given encoded
/// before, and without `data`.
private struct TrainSheetMembers: AnswerForm {
    typealias Encodes = Answer.Sheet
    typealias CodingKeys = Answer.Sheet.CodingKeys
    let stopType = StopType.train
    let stopId: String? = nil
    let stationId: String
    let stationName: String
    let alertGlyph: PreEncoded<Answer.AlertGlyph>?
    let accessibilityButton: ButtonMembers
    let alerts: PreEncoded<[Answer.Alert]>
    /// Left out (omittable): each answer writes it after the members.
    let data: PreEncoded<Answer.SheetData>? = nil
}

/// `Answer.AccessibilityButton` with its advisories and `now` encoded before.
private struct ButtonMembers: AnswerForm {
    typealias Encodes = Answer.AccessibilityButton
    typealias CodingKeys = Answer.AccessibilityButton.CodingKeys
    let tone: Answer.Tone
    let stepFree: Answer.StepFree
    let stepFreeFrom: Answer.StepFreeBasis?
    let accessibilityLabel: String
    let symbol: String
    let alert: Answer.Dialog
    let advisories: PreEncoded<[Answer.Advisory]>
    let now: PreEncoded<Answer.StepFreeNow>
}
