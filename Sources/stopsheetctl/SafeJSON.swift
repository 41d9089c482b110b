import StopSheetCore

/// `--json` output: exact JSON, one line, with every character that `TerminalText` would make
/// visible written as a `\u` escape instead (the encoder escapes C0 controls but writes DEL, C1
/// controls, U+2028/2029 and bidi controls raw — valid JSON, but raw on the terminal of whoever
/// reads it, and the end of a line to some parsers). Outside strings, encoded JSON is ASCII
/// punctuation, digits and letters, so an escape can only ever land inside a string.
enum SafeJSON {
    static func text(_ value: JSON) -> String {
        let encoded = value.encodedString
        guard encoded.unicodeScalars.contains(where: UpstreamText.isUnsafe) else { return encoded }
        var result = ""
        for scalar in encoded.unicodeScalars {
            guard UpstreamText.isUnsafe(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            for unit in String(scalar).utf16 { result += "\\u" + TerminalText.hex(UInt32(unit), digits: 4).lowercased() }
        }
        return result
    }
}
