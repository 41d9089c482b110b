/// RFC 4180 output for building CSV variants in tests: quotes only the fields that need it.
func csvLine(_ fields: [String]) -> String {
    fields.map { field in
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacing("\"", with: "\"\"") + "\""
    }.joined(separator: ",")
}

func csv(_ rows: [[String]], lineEnd: String = "\n") -> String {
    rows.map(csvLine).joined(separator: lineEnd) + lineEnd
}
