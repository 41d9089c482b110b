/// The columns of the Chicago Data Portal dataset "CTA – System Information – List of 'L' Stops",
/// shared by its CSV export and its JSON forms.
enum LStopsSchema {
    static let stopID = "STOP_ID", directionID = "DIRECTION_ID", stopName = "STOP_NAME", stationName = "STATION_NAME", mapID = "MAP_ID", ada = "ADA"
    /// The CSV export's platform position, `(41.799756, -87.724493)`, upper-cased as the columns are compared.
    static let location = "LOCATION"

    /// One boolean column per line; the dataset's names are not the Alerts API's route ids.
    /// In CTA line order, so a platform's routes come out in that order whatever the columns' order.
    static let routeFlags: [(column: String, route: RouteID)] = [
        ("RED", .red), ("BLUE", .blue), ("BRN", .brown), ("G", .green), ("O", .orange),
        ("P", .purple), ("Pexp", .purpleExpress), ("Pnk", .pink), ("Y", .yellow),
    ]

    /// `true` / `false` in any case; nil for anything else, empty included.
    static func boolean(_ text: String) -> Bool? {
        switch UpstreamText.trimmed(text).lowercased() {
        case "true": return true
        case "false": return false
        default: return nil
        }
    }

    /// A line flag: empty means the line does not stop there; anything but true/false is an error.
    static func routeFlag(_ text: String, at path: String) throws(DecodingFailure) -> Bool {
        if UpstreamText.trimmed(text).isEmpty { return false }
        guard let flag = boolean(text) else { throw .malformed(path: path, reason: "expected true or false, found '\(text)'") }
        return flag
    }
}
