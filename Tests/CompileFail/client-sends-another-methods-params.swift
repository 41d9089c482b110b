// expect: cannot convert value of type 'Methods.StopSheet.Params' to expected argument type 'Methods.Station.Params'
// A client call of `station` with `stopSheet`'s params.
import StopSheetProtocol
import StopSheetClient

func client(_ client: StopSheetClient, _ params: Methods.StopSheet.Params) throws {
    _ = try client.call(Methods.Station.self, params)
}
