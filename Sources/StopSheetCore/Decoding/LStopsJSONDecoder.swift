/// The 'L' stops dataset as a JSON array of row objects: the Socrata API's lowercase keys
/// (`stop_id`, `map_id`, `ada`, `red`, …) or other exports' uppercase CSV names. Ids may be
/// strings or numbers, flags JSON booleans or `"true"`/`"false"`.
public enum LStopsJSONDecoder {
    public static func decode(_ document: JSON, limits: DecodingLimits = .init()) throws(DecodingFailure) -> [Platform] {
        guard let elements = document.arrayValue else {
            throw JSONFields.wrongType(document, at: "root", expected: "an array of stops")
        }
        return try JSONFields.records(elements, at: "", limits: limits, platform)
    }

    private static func platform(_ value: JSON, at path: String) throws(DecodingFailure) -> Platform {
        let object = try JSONFields.object(value, at: path)
        var fields: [String: JSON] = [:]
        for (key, value) in object.members { fields[key.lowercased()] = value }
        // Socrata leaves out members whose value is null, so only ids and the name are required.
        func field(_ column: String) -> (value: JSON?, path: String) {
            let key = column.lowercased()
            return (fields[key], "\(path).\(key)")
        }

        let stopIDField = field(LStopsSchema.stopID), mapIDField = field(LStopsSchema.mapID)
        let stopID = try JSONFields.id(stopIDField.value, at: stopIDField.path)
        let stationID = try JSONFields.id(mapIDField.value, at: mapIDField.path)
        let nameField = field(LStopsSchema.stationName)
        guard let stationName = try JSONFields.optionalScalarText(nameField.value, at: nameField.path),
            !UpstreamText.trimmed(stationName).isEmpty
        else { throw .malformed(path: nameField.path, reason: nameField.value == nil ? "missing" : "empty") }

        var routes: [RouteID] = []
        for (column, route) in LStopsSchema.routeFlags {
            let flag = field(column)
            switch flag.value {
            case nil, .null?: continue
            case .bool(let isSet)?: if isSet { routes.append(route) }
            case .string(let text)?: if try LStopsSchema.routeFlag(text, at: flag.path) { routes.append(route) }
            case let other?: throw JSONFields.wrongType(other, at: flag.path, expected: "true or false")
            }
        }

        let stepFree: Bool?
        switch field(LStopsSchema.ada).value {
        case .bool(let value)?: stepFree = value
        case .string(let text)?: stepFree = LStopsSchema.boolean(text)
        default: stepFree = nil
        }

        let directionField = field(LStopsSchema.directionID)
        let direction = try JSONFields.optionalString(directionField.value, at: directionField.path).map(UpstreamText.trimmed)
        // Optional, and only ever read for its words: a name of another type is no name.
        let nameValue = field(LStopsSchema.stopName)
        let name = (try? JSONFields.optionalScalarText(nameValue.value, at: nameValue.path)) ?? nil
        return Platform(
            stopID: stopID,
            stationID: stationID,
            stationName: stationName,
            direction: direction,
            routes: routes,
            stepFree: stepFree,
            name: name)
    }
}
