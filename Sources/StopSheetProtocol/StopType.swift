/// What kind of stop a sheet is for (`stopType` of `stopSheet` and `subscribe`).
public enum StopType: String, CaseIterable, Sendable {
    case train, bus

    /// What a request without `stopType` means.
    public static let `default` = StopType.train
}

/// What `refresh` refreshes (its `what` param).
public enum RefreshTarget: String, CaseIterable, Sendable {
    case alerts, stations, facilities, all

    public static let `default` = RefreshTarget.all
}
