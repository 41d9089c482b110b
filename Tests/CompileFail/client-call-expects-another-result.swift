// expect: to type 'Reply<Answer.Sheet>'
// A client call of `station` that expects a stop sheet.
import StopSheetProtocol
import StopSheetClient

func client(_ client: StopSheetClient) throws {
    let _: Reply<Answer.Sheet> = try client.call(Methods.Station.self, Methods.Station.Params(stopId: StopID("40380")!))
}
