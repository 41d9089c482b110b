import StopSheetCore
import StopSheetProtocol

/// `facilities`: the lift-status units at the stations (`Answer.Facilities`), from the current
/// snapshot's join, `available` units included.
extension StopSheetService {
    /// All units, or those of `stopID`'s station.
    func facilities(_ stopID: String?) throws(RPCError) -> PreEncoded<Answer.Facilities> {
        let current = store.current.encoded
        let snapshot = current.snapshot
        guard let stations = snapshot.stations else { throw notLoaded(.stations) }
        guard let data = snapshot.facilities else { throw notLoaded(.facilities) }
        var station: Station?
        if let stopID {
            station = stations.station(for: stopID)
            guard station != nil else { throw unknownStop(stopID) }
        }
        return PreEncoded(snapshot.facilitiesAnswer(at: station, stations: stations, data: data, in: current.zone))
    }
}
