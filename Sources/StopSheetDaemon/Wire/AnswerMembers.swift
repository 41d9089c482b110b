import StopSheetCore
import StopSheetProtocol

/// Writing an answer object's members (`StopSheetProtocol`'s `Answer` types) by their
/// `CodingKeys`: the member names come from the protocol alone, and `members(_:_:)` hands each key
/// in wire order to a closure that switches over every one, so a member added to a type is a
/// compile error here until it is written. The primitives (a key, then a value) are JSONWriter's.
extension JSONWriter {
    /// Each of `K`'s members in order, written (or, where it does not apply, skipped) by `body`.
    mutating func members<K: AnswerKey>(_ keys: K.Type, _ body: (inout JSONWriter, K) -> Void) {
        for key in K.allCases { body(&self, key) }
    }

    mutating func member(_ key: some AnswerKey, string: String?) {
        guard let string else { return member(key, .null) }
        member(key, string: string)
    }

    mutating func member(_ key: some AnswerKey, int: Int?) { member(key, int.map(JSON.int) ?? .null) }

    mutating func member(_ key: some AnswerKey, bool: Bool?) { member(key, bool.map(JSON.bool) ?? .null) }

    mutating func member(_ key: some AnswerKey, word: some AnswerWord) { member(key, string: word.rawValue) }

    mutating func member(_ key: some AnswerKey, strings: [String]) {
        array(key) { array in
            for string in strings { array.element(.string(string)) }
        }
    }

    mutating func null(_ key: some AnswerKey) { member(key, .null) }

    /// An array member of objects, each one's members written by `body`.
    mutating func array<Element>(_ key: some AnswerKey, of elements: [Element], _ body: (inout JSONWriter, Element) -> Void) {
        array(key) { array in
            for element in elements { array.elementObject { body(&$0, element) } }
        }
    }
}
