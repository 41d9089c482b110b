// expect: candidate expects value of type 'Methods.Station.Params' for parameter #2 (got 'Methods.StopSheet.Params')
// A client call of `station` with `stopSheet`'s params.
import StopSheetProtocol
import StopSheetClient

func client(_ client: StopSheetClient, _ params: Methods.StopSheet.Params) throws {
    _ = try client.call(Methods.Station.self, params)
}
