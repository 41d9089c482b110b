// expect: cannot convert value of type 'Methods.Station.Type' to expected argument type 'String'
// A typed call of `station` with its params as untyped JSON: a typed call takes its method's
// `Params` value alone; JSON goes through the raw `call(method:params:)`, which takes a method's name.
import StopSheetCore
import StopSheetProtocol
import StopSheetClient

func client(_ client: StopSheetClient) throws {
    _ = try client.call(Methods.Station.self, params: ["stopId": "40380"])
}
