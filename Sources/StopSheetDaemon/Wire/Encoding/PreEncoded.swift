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

    /// An object whose members are in the order given (a `[String: Value]` as the daemon orders
    /// it: `stats`' counts by method): the encoder's bytes for its `OrderedMembers`.
    init<Value: Encodable>(orderedMembers members: [(name: String, value: Value)]) where Encodes == [String: Value] {
        bytes = AnswerEncoding.encode(OrderedMembers(members))
    }

    /// An object of values each encoded before, in the order given (`subscribe`'s sheets by stop id).
    init<Element>(orderedMembers members: [(name: String, value: PreEncoded<Element>)]) where Encodes == [String: Element] {
        bytes = AnswerEncoding.encode(OrderedMembers(members))
    }

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
        if AnswerEncoding.splice(bytes, through: encoder) { return }
        try EncodableJSON(try JSONParser.parse(bytes)).encode(to: encoder)
    }
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
