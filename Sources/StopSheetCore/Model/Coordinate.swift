// C math by name: the core imports nothing else (no I/O, no clock).
import func Glibc.asin
import func Glibc.cos
import func Glibc.sin

/// A point on the Earth, as GTFS `stop_lat`/`stop_lon` give it (WGS 84 degrees).
public struct Coordinate: Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double

    /// Mean Earth radius (IUGG), in metres.
    static let earthRadiusMeters = 6_371_008.8

    public init?(latitude: Double, longitude: Double) {
        guard (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// From the feed's text: decimal degrees, in range; nil otherwise.
    public init?(latitude: String, longitude: String) {
        guard let lat = Double(latitude), let lon = Double(longitude) else { return nil }
        self.init(latitude: lat, longitude: lon)
    }

    /// The great-circle distance (haversine), in metres.
    public func meters(to other: Coordinate) -> Double {
        let radians = Double.pi / 180
        let dLat = (other.latitude - latitude) * radians, dLon = (other.longitude - longitude) * radians
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(latitude * radians) * cos(other.latitude * radians) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * Coordinate.earthRadiusMeters * asin(min(1, h.squareRoot()))
    }
}
