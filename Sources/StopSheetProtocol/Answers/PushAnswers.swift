extension Answer {
    /// `subscribe`'s result: the current answers, `sheets` by stop id as given when stop ids were
    /// given, `health` when asked.
    public struct Subscribed: AnswerObject {
        public var subscription: String
        public var sheets: [String: Sheet]?
        public var health: Health?

        public enum CodingKeys: String, AnswerKey { case subscription, sheets, health }

        public static let summary = "The new subscription's id and the current answers."

        public init(subscription: String, sheets: [String: Sheet]?, health: Health?) { (self.subscription, self.sheets, self.health) = (subscription, sheets, health) }
    }

    /// `stopSheetChanged`'s params: `sheet` is what `stopSheet {stopId}` answers now, `null` once
    /// the stop is no longer known.
    public struct SheetChanged: AnswerObject {
        public var subscription: String
        public var seq: Int
        public var stopId: String
        public var sheet: Nullable<Sheet>

        public enum CodingKeys: String, AnswerKey { case subscription, seq, stopId, sheet }

        public static let summary = "A watched stop's sheet changed."

        public init(subscription: String, seq: Int, stopId: String, sheet: Sheet?) {
            (self.subscription, self.seq, self.stopId, self.sheet) = (subscription, seq, stopId, Nullable(sheet))
        }
    }

    /// `healthChanged`'s params.
    public struct HealthChanged: AnswerObject {
        public var subscription: String
        public var seq: Int
        public var health: Health

        public enum CodingKeys: String, AnswerKey { case subscription, seq, health }

        public static let summary = "The daemon's health changed: its status, a cache's loaded or lastError."

        public init(subscription: String, seq: Int, health: Health) { (self.subscription, self.seq, self.health) = (subscription, seq, health) }
    }
}
