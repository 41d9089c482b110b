import StopSheetCore

/// JSON Schema (draft 7, as OpenRPC uses) of the answer types, read off the types themselves: a
/// decoder that, instead of reading a value, notes what each type asks for — each member by its
/// `CodingKeys` name, its type, whether it may be left out (a plain optional property, read with
/// `decodeIfPresent`) or be `null` (a `Nullable` one, which asks `decodeNil(forKey:)` first) —
/// so the schema cannot say anything the types do not. Each `AnswerObject`
/// becomes one entry of `components/schemas`, referred to with `$ref`; each `AnswerWord` an
/// `enum` of its words.
public struct AnswerSchemas {
    /// `components/schemas`, each object once, in the order first met.
    public private(set) var components = JSONObject()

    public init() {}

    public static let componentsPath = "#/components/schemas/"

    /// A `$ref` to `type`'s schema, which is added to `components` with every object it holds.
    /// Throws what a type's `init(from:)` throws while it is read (a type that checks what it
    /// reads): its schema would be missing or half written, and `components` is left as it was.
    public mutating func reference(_ type: any AnswerObject.Type) throws -> JSON {
        let book = Book(components)
        let schema = try book.describe(type)
        components = book.components
        return schema
    }

    public static func name(_ type: Any.Type) -> String { String(describing: type) }
}

/// What the recording decoder writes into while a type's `init(from:)` runs.
private final class Book {
    var components: JSONObject

    init(_ components: JSONObject) { self.components = components }

    /// The `$ref` of an object type, describing it first when it is new.
    func describe(_ type: any AnswerObject.Type) throws -> JSON {
        _ = try instance(type)
        return ["$ref": .string(AnswerSchemas.componentsPath + AnswerSchemas.name(type))]
    }

    /// Decodes `T` from the recorder (a value that exists only to be thrown away) and notes its
    /// schema in `note`.
    func instance<T: Decodable>(_ type: T.Type, note: SchemaNote = SchemaNote()) throws -> T {
        if let word = T.self as? any AnswerWord.Type {
            note.schema = ["type": "string", "enum": .array(Self.words(word).map(JSON.string))]
            return Self.firstWord(word) as! T
        }
        if let dictionary = T.self as? any StringKeyedDictionary.Type {
            let values = SchemaNote()
            _ = try dictionary.decodeValue(self, values)
            note.schema = ["type": "object", "additionalProperties": values.schema ?? [:]]
            return dictionary.empty as! T
        }
        if let object = T.self as? any AnswerObject.Type {
            let name = AnswerSchemas.name(object)
            note.schema = ["$ref": .string(AnswerSchemas.componentsPath + name)]
            let record = ObjectRecord()
            let value = try T(from: Recorder(book: self, note: SchemaNote(), record: record))
            if components[name] == nil {
                var schema = JSONObject([("type", "object"), ("description", .string(object.summary))])
                schema.append("properties", .object(record.properties))
                schema.append("required", .array(record.required.map(JSON.string)))
                if let variants = try record.variants() { schema.append("allOf", variants) }
                components.append(name, .object(schema))
            }
            return value
        }
        return try T(from: Recorder(book: self, note: note, record: ObjectRecord()))
    }

    private static func words<W: AnswerWord>(_ word: W.Type) -> [String] { W.allCases.map(\.rawValue) }
    private static func firstWord<W: AnswerWord>(_ word: W.Type) -> W { W.allCases.first! }
}

/// Where one value's schema is noted.
private final class SchemaNote {
    var schema: JSON?
}

/// An object's members as noted, in the order its `init(from:)` reads them.
private final class ObjectRecord {
    var properties = JSONObject()
    var required: [String] = []
    /// The members whose `Nullable` decoding asked whether they are `null`.
    var mayBeNull: Set<String> = []
    /// The object's `AnswerKey.variants`, read off the first member's key.
    private var variantsOfKeys: (discriminator: String, members: [(word: String, keys: [String])])?

    /// A member read with `decode` (present; `null` too when it asked first) or `decodeIfPresent`
    /// (left out when absent, never `null`).
    func note(_ key: some CodingKey, _ schema: JSON, leftOutWhenAbsent: Bool) {
        if properties.members.isEmpty, let key = key as? any AnswerKey { variantsOfKeys = Self.variants(of: key) }
        guard properties[key.stringValue] == nil else { return }
        properties.append(key.stringValue, mayBeNull.contains(key.stringValue) ? Self.nullable(schema) : schema)
        if !leftOutWhenAbsent { required.append(key.stringValue) }
    }

    private static func variants<K: AnswerKey>(of key: K) -> (discriminator: String, members: [(word: String, keys: [String])])? {
        K.variants.map { variants in
            (variants.discriminator.stringValue, variants.members.map { ($0.word, $0.keys.map(\.stringValue)) })
        }
    }

    /// Per variant, `if` its discriminator has the word `then` its members; a variant naming a
    /// member every answer has (or none) is a mistake of its declaration, thrown.
    func variants() throws -> JSON? {
        guard let (discriminator, members) = variantsOfKeys else { return nil }
        for (word, keys) in members {
            for key in keys where properties[key] == nil || required.contains(key) {
                throw SchemaError.variantMemberNotLeftOut(variant: word, member: key)
            }
        }
        return .array(members.map { word, keys in
            [
                "if": ["properties": .object(JSONObject([(discriminator, ["const": .string(word)])])), "required": [.string(discriminator)]],
                "then": ["required": .array(keys.map(JSON.string))],
            ]
        })
    }

    static func nullable(_ schema: JSON) -> JSON {
        if case .object(var object) = schema, object.keys == ["type"], case .string(let type)? = object["type"] {
            object.members[0].value = [.string(type), "null"]
            return .object(object)
        }
        return ["oneOf": [schema, ["type": "null"]]]
    }
}

/// What the recorder finds wrong in a type's declaration.
public enum SchemaError: Error, Equatable {
    /// `AnswerKey.variants` names a member that is not left out when absent.
    case variantMemberNotLeftOut(variant: String, member: String)
}

private protocol StringKeyedDictionary {
    static var empty: Self { get }
    static func decodeValue(_ book: Book, _ note: SchemaNote) throws -> Any
}

extension Dictionary: StringKeyedDictionary where Key == String, Value: Decodable {
    fileprivate static var empty: Self { [:] }
    fileprivate static func decodeValue(_ book: Book, _ note: SchemaNote) throws -> Any { try book.instance(Value.self, note: note) }
}

private let stringSchema: JSON = ["type": "string"]
private let integerSchema: JSON = ["type": "integer"]
private let numberSchema: JSON = ["type": "number"]
private let booleanSchema: JSON = ["type": "boolean"]

private struct Recorder: Decoder {
    let book: Book
    let note: SchemaNote
    let record: ObjectRecord
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Keyed(book: book, record: record))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let items = SchemaNote()
        note.schema = ["type": "array", "items": .null]
        return Unkeyed(book: book, items: items, array: note)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(book: book, note: note) }
}

private struct Single: SingleValueDecodingContainer {
    let book: Book
    let note: SchemaNote
    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool { false }
    func decode(_ type: Bool.Type) throws -> Bool { note.schema = booleanSchema; return false }
    func decode(_ type: String.Type) throws -> String { note.schema = stringSchema; return "" }
    func decode(_ type: Double.Type) throws -> Double { note.schema = numberSchema; return 0 }
    func decode(_ type: Float.Type) throws -> Float { note.schema = numberSchema; return 0 }
    func decode(_ type: Int.Type) throws -> Int { note.schema = integerSchema; return 0 }
    func decode(_ type: Int8.Type) throws -> Int8 { note.schema = integerSchema; return 0 }
    func decode(_ type: Int16.Type) throws -> Int16 { note.schema = integerSchema; return 0 }
    func decode(_ type: Int32.Type) throws -> Int32 { note.schema = integerSchema; return 0 }
    func decode(_ type: Int64.Type) throws -> Int64 { note.schema = integerSchema; return 0 }
    func decode(_ type: UInt.Type) throws -> UInt { note.schema = integerSchema; return 0 }
    func decode(_ type: UInt8.Type) throws -> UInt8 { note.schema = integerSchema; return 0 }
    func decode(_ type: UInt16.Type) throws -> UInt16 { note.schema = integerSchema; return 0 }
    func decode(_ type: UInt32.Type) throws -> UInt32 { note.schema = integerSchema; return 0 }
    func decode(_ type: UInt64.Type) throws -> UInt64 { note.schema = integerSchema; return 0 }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try book.instance(type, note: note) }
}

private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let book: Book
    let record: ObjectRecord
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }
    /// Asked by a `Nullable` member alone: it may be `null`.
    func decodeNil(forKey key: Key) throws -> Bool {
        record.mayBeNull.insert(key.stringValue)
        return false
    }

    private func note<T: Decodable>(_ type: T.Type, _ key: Key, leftOutWhenAbsent: Bool) throws -> T {
        let note = SchemaNote()
        let value = try book.instance(type, note: note)
        record.note(key, note.schema ?? [:], leftOutWhenAbsent: leftOutWhenAbsent)
        return value
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try note(type, key, leftOutWhenAbsent: false) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try note(type, key, leftOutWhenAbsent: false) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try note(type, key, leftOutWhenAbsent: false) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try note(type, key, leftOutWhenAbsent: false) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try note(type, key, leftOutWhenAbsent: false) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try note(type, key, leftOutWhenAbsent: false) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try note(type, key, leftOutWhenAbsent: false) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try note(type, key, leftOutWhenAbsent: false) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try note(type, key, leftOutWhenAbsent: false) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try note(type, key, leftOutWhenAbsent: false) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try note(type, key, leftOutWhenAbsent: false) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try note(type, key, leftOutWhenAbsent: false) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try note(type, key, leftOutWhenAbsent: false) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try note(type, key, leftOutWhenAbsent: false) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try note(type, key, leftOutWhenAbsent: false) }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try note(type, key, leftOutWhenAbsent: true) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try note(type, key, leftOutWhenAbsent: true) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try note(type, key, leftOutWhenAbsent: true) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try note(type, key, leftOutWhenAbsent: true) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { try note(type, key, leftOutWhenAbsent: true) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        KeyedDecodingContainer(Keyed<NestedKey>(book: book, record: ObjectRecord()))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { Unkeyed(book: book, items: SchemaNote(), array: SchemaNote()) }
    func superDecoder() throws -> any Decoder { Recorder(book: book, note: SchemaNote(), record: record) }
    func superDecoder(forKey key: Key) throws -> any Decoder { Recorder(book: book, note: SchemaNote(), record: ObjectRecord()) }
}

/// An array: one element is read, whose schema is the items'.
private struct Unkeyed: UnkeyedDecodingContainer {
    let book: Book
    let items: SchemaNote
    let array: SchemaNote
    var codingPath: [any CodingKey] { [] }
    var count: Int? { 1 }
    var currentIndex = 0
    var isAtEnd: Bool { currentIndex > 0 }

    init(book: Book, items: SchemaNote, array: SchemaNote) { (self.book, self.items, self.array) = (book, items, array) }

    private mutating func element<T: Decodable>(_ type: T.Type) throws -> T {
        currentIndex += 1
        let value = try book.instance(type, note: items)
        array.schema = ["type": "array", "items": items.schema ?? [:]]
        return value
    }

    mutating func decodeNil() throws -> Bool { false }
    mutating func decode(_ type: Bool.Type) throws -> Bool { try element(type) }
    mutating func decode(_ type: String.Type) throws -> String { try element(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try element(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try element(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try element(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try element(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try element(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try element(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try element(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try element(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try element(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try element(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try element(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try element(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try element(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        currentIndex += 1
        return KeyedDecodingContainer(Keyed<NestedKey>(book: book, record: ObjectRecord()))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        currentIndex += 1
        return Unkeyed(book: book, items: SchemaNote(), array: SchemaNote())
    }

    mutating func superDecoder() throws -> any Decoder {
        currentIndex += 1
        return Recorder(book: book, note: SchemaNote(), record: ObjectRecord())
    }
}
