import StopSheetCore
import StopSheetProtocol

/// `stationMap`: a station's map as an answer (issue 51), its platforms' ways as the snapshot's
/// build worked them out (`EncodedSnapshot.mapVerdict`), never walked per answer.
extension StopSheetService {
    func stationMap(_ stopID: String) throws(RPCError) -> PreEncoded<Answer.StationMap> {
        let current = store.current.encoded
        guard let stations = current.snapshot.stations else { throw notLoaded(.stations) }
        guard let index = current.stationIndex(stopID: stopID) else { throw unknownStop(stopID) }
        let station = stations.stations[index]
        return PreEncoded(Answer.StationMap(stationID: station.id, topology: stations.topologies[station.id], now: current.mapVerdict(at: index)))
    }
}
