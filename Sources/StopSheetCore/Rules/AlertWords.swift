/// How the accessibility rules read an alert's words: lower-case runs of letters and digits, so
/// "Out-of-Service" reads as "out of service", and phrases as runs of such words. One reading for
/// `AccessibilityAdvisory` and `AlertOutage`, both run on every live alert of every snapshot.
enum AlertWords {
    static func words(_ text: String) -> [String] {
        // ASCII (every CTA headline, most others) byte by byte: Character's letter test costs a
        // grapheme break and a Unicode property lookup per character.
        var words: [String] = []
        var current: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): current.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): current.append(byte | 0x20)
            case 0x80...: return text.lowercased().split { !($0.isLetter || $0.isNumber) }.map(String.init)
            default:
                if !current.isEmpty {
                    words.append(String(decoding: current, as: UTF8.self))
                    current.removeAll(keepingCapacity: true)
                }
            }
        }
        if !current.isEmpty { words.append(String(decoding: current, as: UTF8.self)) }
        return words
    }

    /// Whether `words` holds `phrase` (words) as a run.
    static func contains(_ words: [String], phrase: [String]) -> Bool {
        guard phrase.count <= words.count, let first = phrase.first else { return phrase.isEmpty }
        for start in 0...(words.count - phrase.count) where words[start] == first {
            if words[start..<(start + phrase.count)].elementsEqual(phrase) { return true }
        }
        return false
    }
}
