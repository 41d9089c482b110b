// expect: PreEncoded<Answer.SheetChanged>' to expected argument type
// A `healthChanged` notification sent with `stopSheetChanged`'s params.
import StopSheetProtocol
@testable import StopSheetDaemon

func notification(_ params: PreEncoded<Answer.SheetChanged>) {
    _ = NotificationQueue.Notification(Notifications.HealthChanged.self, params: params)
}
