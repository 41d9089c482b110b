/// Where a station data's stations are, indexed for the position join (`FacilityJoin`,
/// `--facilities-radius`): every stop with a coordinate (a station itself, a platform, an
/// entrance, a node or boarding area) with its station, sorted by latitude, built once per station
/// data (`StationDirectory`). A query reads only the band of latitudes within its reach (no two
/// points further apart in latitude than a distance are nearer than it on the sphere), so a
/// feed's 3,500 units join without trying every pair.
public struct StationPositions: Sendable {
    private struct Point: Sendable {
        var coordinate: Coordinate
        /// The station's position in `StationDirectory.stations`.
        var station: Int
    }

    /// Sorted by latitude.
    private let points: [Point]

    /// `positions`: stop id → coordinate; `station` gives a stop's station's position, nil for a
    /// stop of no station (left out).
    init(_ positions: [String: Coordinate], station: (String) -> Int?) {
        points = positions.compactMap { id, coordinate in station(id).map { Point(coordinate: coordinate, station: $0) } }
            .sorted { ($0.coordinate.latitude, $0.station) < ($1.coordinate.latitude, $1.station) }
    }

    public var count: Int { points.count }

    /// Degrees of latitude per metre along a meridian (of the sphere `Coordinate.meters` measures on).
    private static let degreesPerMeter = 180 / (Double.pi * Coordinate.earthRadiusMeters)

    /// Each station with a stop within `meters` of `position`, with the distance of its nearest
    /// stop, nearest first (a tie by station position).
    public func stations(within meters: Double, of position: Coordinate) -> [(station: Int, meters: Double)] {
        let band = meters * Self.degreesPerMeter
        let low = position.latitude - band, high = position.latitude + band
        // The first point at or above `low`.
        var start = 0, end = points.count
        while start < end {
            let middle = (start + end) / 2
            if points[middle].coordinate.latitude < low { start = middle + 1 } else { end = middle }
        }
        var nearest: [Int: Double] = [:]
        var index = start
        while index < points.count, points[index].coordinate.latitude <= high {
            let point = points[index]
            let distance = position.meters(to: point.coordinate)
            if distance <= meters, distance < nearest[point.station] ?? .infinity { nearest[point.station] = distance }
            index += 1
        }
        return nearest.map { (station: $0.key, meters: $0.value) }.sorted { ($0.meters, $0.station) < ($1.meters, $1.station) }
    }
}
