/// The app API's stops: `{"stops":[{"stopId","stationId","stationName","routes":["Red"],
/// "stepFree":true|false|null,"direction"?}]}`. Routes it does not know as train lines are skipped.
public enum AppStopsDecoder {
    public static func decode(_ document: JSON, limits: DecodingLimits = .init()) throws(DecodingFailure) -> [Platform] {
        try JSONFields.records(try JSONFields.array(document["stops"], at: "stops"), at: "stops", limits: limits, platform)
    }

    private static func platform(_ value: JSON, at path: String) throws(DecodingFailure) -> Platform {
        let object = try JSONFields.object(value, at: path)
        let stopID = try JSONFields.id(object["stopId"], at: "\(path).stopId")
        let stationID = try JSONFields.id(object["stationId"], at: "\(path).stationId")
        let stationName = try JSONFields.string(object["stationName"], at: "\(path).stationName")
        guard !UpstreamText.trimmed(stationName).isEmpty else { throw .malformed(path: "\(path).stationName", reason: "empty") }

        var routes: [RouteID] = []
        if let list = object["routes"], !list.isNull {
            for (index, element) in try JSONFields.array(list, at: "\(path).routes").enumerated() {
                guard let text = element.scalarText else {
                    throw JSONFields.wrongType(element, at: "\(path).routes[\(index)]", expected: "a route id")
                }
                if let route = RouteID.train(text), !routes.contains(route) { routes.append(route) }
            }
        }

        let stepFree: Bool?
        switch object["stepFree"] {
        case nil, .null?: stepFree = nil
        case .bool(let value)?: stepFree = value
        case let other?: throw JSONFields.wrongType(other, at: "\(path).stepFree", expected: "true, false or null")
        }

        let direction = try JSONFields.optionalString(object["direction"], at: "\(path).direction").map(UpstreamText.trimmed)
        return Platform(
            stopID: stopID,
            stationID: stationID,
            stationName: stationName,
            direction: direction,
            routes: routes,
            stepFree: stepFree)
    }
}
