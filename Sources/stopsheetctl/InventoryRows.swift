import StopSheetClient

/// `facilities --unplaced`: what a deployer must map, as rows of the inventory CSV that
/// `--facilities-inventory-url` loads (`facility_id,stop_id,pathway_id`, the header first): one
/// row per candidate pathway of each unit no rule places, or, with no candidate, one row with its
/// station (if any) and the pathway left empty. Keeping the right row and loading it places the
/// unit.
enum InventoryRows {
    static let header: TerminalText = "facility_id,stop_id,pathway_id"

    static func unplaced(_ answer: Answer.Facilities) -> [TerminalText] {
        var rows = [header]
        for unit in answer.units where unit.unplaced != nil {
            let pathways = unit.candidates ?? []
            for pathway in pathways.isEmpty ? [""] : pathways {
                rows.append(TerminalText([unit.unitId, unit.stationId, pathway].map(field).joined(separator: ",")))
            }
        }
        return rows
    }

    /// A CSV field, quoted when it holds a comma, a quote, a line break or a space at either end.
    private static func field(_ text: String) -> String {
        let quoted = text.contains { ",\"\r\n".contains($0) } || text.first == " " || text.last == " "
        return quoted ? "\"" + text.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\"" : text
    }
}
