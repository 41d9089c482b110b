// expect: requires the types 'Answer.HealthChanged' and
// A client reading `stopSheetChanged`'s params as `healthChanged`'s.
import StopSheetCore
import StopSheetProtocol
@testable import StopSheetClient

func notification(_ json: JSON) throws {
    _ = try Reply<Answer.HealthChanged>(json, of: Notifications.StopSheetChanged.self)
}
