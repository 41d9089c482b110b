// expect: cannot convert value of type
// A typed call of `station` with its params as key-value pairs of any JSON (the overload that
// sent a value of any type under a param's name is gone): only a `Methods.Station.Params` value.
import StopSheetCore
import StopSheetProtocol
import StopSheetClient

func client(_ client: StopSheetClient) throws {
    _ = try client.call(Methods.Station.self, [Methods.Station.Params.CodingKeys.stopId: JSON.number("40380")])
}
