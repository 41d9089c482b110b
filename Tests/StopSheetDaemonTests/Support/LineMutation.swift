/// Random small edits of a request line (1–3 bytes replaced, inserted or removed), from an
/// alphabet of JSON punctuation, digits, escapes and a few bytes that are not valid there, for
/// the fast-path equivalence tests.
func mutated(_ line: [UInt8], using generator: inout some RandomNumberGenerator) -> [UInt8] {
    let alphabet = Array(#" {}[]:,"\-+.0123456789eEabcdnrtu"#.utf8) + [0x09, 0x0D, 0x00, 0x7F, 0xC3, 0xA9]
    var line = line
    for _ in 0..<Int.random(in: 1...3, using: &generator) {
        let position = Int.random(in: 0..<line.count, using: &generator)
        let byte = alphabet.randomElement(using: &generator)!
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: line[position] = byte
        case 1: line.insert(byte, at: position)
        default: if line.count > 1 { line.remove(at: position) }
        }
    }
    return line
}
