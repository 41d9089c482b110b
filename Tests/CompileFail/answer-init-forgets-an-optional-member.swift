// expect: missing argument for parameter 'reason'
// An answer built without one of its optional members (`Answer.StationMap.reason`): no init
// parameter has a default, so a member added to an answer is asked of every place that builds it.
import StopSheetProtocol

func mapWithoutItsReason() -> Answer.StationMap {
    Answer.StationMap(stationId: "40380", map: nil)
}
