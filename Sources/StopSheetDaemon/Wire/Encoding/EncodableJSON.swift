import StopSheetCore

/// A JSON value written through any `Encoder`, member by member in its order: how `PreEncoded`
/// encodes under an encoder other than `AnswerEncoder` (which splices its bytes as they are), so
/// that an answer holding parts encoded before is still `Encodable` everywhere.
struct EncodableJSON: Encodable {
    let json: JSON

    init(_ json: JSON) { self.json = json }

    func encode(to encoder: any Encoder) throws {
        switch json {
        case .object(let object):
            var members = encoder.container(keyedBy: RunTimeKey.self)
            for (name, value) in object.members { try members.encode(EncodableJSON(value), forKey: RunTimeKey(stringValue: name)) }
        case .array(let elements):
            var array = encoder.unkeyedContainer()
            for element in elements { try array.encode(EncodableJSON(element)) }
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .string(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .number(let text):
            // As an integer when it is one (every number an answer holds), else as a double.
            var single = encoder.singleValueContainer()
            if let integer = Int(text) {
                try single.encode(integer)
            } else if let double = Double(text) {
                try single.encode(double)
            } else {
                throw EncodingError.invalidValue(text, EncodingError.Context(codingPath: encoder.codingPath, debugDescription: "not a number"))
            }
        }
    }
}
