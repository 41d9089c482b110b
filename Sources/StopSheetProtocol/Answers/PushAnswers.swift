extension Answer {
    /// `subscribe`'s result: the current answers, `sheets` by stop id as given when stop ids were
    /// given, `health` when asked.
    public typealias Subscribed = SubscribedOf<[String: Sheet], Health>

    /// `Subscribed`, its sheets and health given in any form that encodes them (the daemon's are
    /// encoded before, its sheets in the order the stop ids were given).
    public struct SubscribedOf<Sheets: AnswerMember, HealthForm: AnswerMember>: AnswerMember
    where Sheets.Encodes == [String: Sheet], HealthForm.Encodes == Health {
        public typealias Encodes = Subscribed
        public var subscription: String
        public var sheets: Sheets?
        public var health: HealthForm?

        public typealias CodingKeys = SubscribedKeys

        public init(subscription: String, sheets: Sheets?, health: HealthForm?) { (self.subscription, self.sheets, self.health) = (subscription, sheets, health) }
    }

    public enum SubscribedKeys: String, AnswerKey {
        case subscription, sheets, health
        public static let omittable: Set<Self> = [.sheets, .health]
    }

    /// `stopSheetChanged`'s params: `sheet` is what `stopSheet {stopId}` answers now, `null` once
    /// the stop is no longer known.
    public typealias SheetChanged = SheetChangedOf<Sheet>

    /// `SheetChanged`, its sheet given in any form that encodes one.
    public struct SheetChangedOf<SheetForm: AnswerMember>: AnswerMember where SheetForm.Encodes == Sheet {
        public typealias Encodes = SheetChanged
        public var subscription: String
        public var seq: Int
        public var stopId: String
        public var sheet: SheetForm?

        public typealias CodingKeys = SheetChangedKeys

        public init(subscription: String, seq: Int, stopId: String, sheet: SheetForm?) {
            (self.subscription, self.seq, self.stopId, self.sheet) = (subscription, seq, stopId, sheet)
        }
    }

    public enum SheetChangedKeys: String, AnswerKey { case subscription, seq, stopId, sheet }

    /// `healthChanged`'s params.
    public typealias HealthChanged = HealthChangedOf<Health>

    /// `HealthChanged`, its health given in any form that encodes one.
    public struct HealthChangedOf<HealthForm: AnswerMember>: AnswerMember where HealthForm.Encodes == Health {
        public typealias Encodes = HealthChanged
        public var subscription: String
        public var seq: Int
        public var health: HealthForm

        public typealias CodingKeys = HealthChangedKeys

        public init(subscription: String, seq: Int, health: HealthForm) { (self.subscription, self.seq, self.health) = (subscription, seq, health) }
    }

    public enum HealthChangedKeys: String, AnswerKey { case subscription, seq, health }
}

extension Answer.SubscribedOf: Decodable where Sheets: Decodable, HealthForm: Decodable {}
extension Answer.SubscribedOf: Equatable where Sheets: Equatable, HealthForm: Equatable {}
extension Answer.SubscribedOf: AnswerObject where Sheets == [String: Answer.Sheet], HealthForm == Answer.Health {
    public static var summary: String { "The new subscription's id and the current answers." }
    public static var schemaName: String { "Subscribed" }
}

extension Answer.SheetChangedOf: Decodable where SheetForm: Decodable {}
extension Answer.SheetChangedOf: Equatable where SheetForm: Equatable {}
extension Answer.SheetChangedOf: AnswerObject where SheetForm == Answer.Sheet {
    public static var summary: String { "A watched stop's sheet changed." }
    public static var schemaName: String { "SheetChanged" }
}

extension Answer.HealthChangedOf: Decodable where HealthForm: Decodable {}
extension Answer.HealthChangedOf: Equatable where HealthForm: Equatable {}
extension Answer.HealthChangedOf: AnswerObject where HealthForm == Answer.Health {
    public static var summary: String { "The daemon's health changed: its status, a cache's loaded or lastError." }
    public static var schemaName: String { "HealthChanged" }
}
