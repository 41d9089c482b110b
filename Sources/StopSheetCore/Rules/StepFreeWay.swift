extension StepFreeNow {
    /// One of a platform's ways (issue 51): a street end of the station (a step-free entrance, or
    /// TfL's `<station>-Outside` node) from which the platform is reached, or to which it leads,
    /// with every pathway open; `entry` and `exit` say whether it does so now.
    ///
    /// `false` for a way lost to an outage (or one that only ever goes the other way); `nil`
    /// where the platform's own value would be: a way that one of the outages the verdict
    /// cannot rule out (an `unknown` unit, stale lift data, any one candidate of an unplaced
    /// elevator) would take.
    public struct Way: Hashable, Sendable {
        /// The street end's `stop_id`.
        public var id: String
        /// Its `stop_name`, trimmed; may be empty.
        public var name: String
        public var entry: Bool?
        public var exit: Bool?

        public init(id: String, name: String, entry: Bool?, exit: Bool?) {
            self.id = id
            self.name = name
            self.entry = entry
            self.exit = exit
        }

        /// A platform's entry and exit from its ways, the one place they are derived on a map:
        /// `true` when some way's is, else `nil` when some way's is `nil`, else `false` (so
        /// `false` for a platform no way reaches). One refinement keeps the verdict what it was
        /// (the ways never change `stepFree`): when no way is sure but whichever of the outages in
        /// doubt is out some way still works (`surely`: two ambiguous lifts, each on another
        /// entrance's way), the platform's is `true`.
        public static func access(via ways: [Way], surely: (entry: Bool, exit: Bool) = (false, false)) -> (entry: Bool?, exit: Bool?) {
            (either(ways.map(\.entry), surely: surely.entry), either(ways.map(\.exit), surely: surely.exit))
        }

        private static func either(_ values: [Bool?], surely: Bool) -> Bool? {
            values.contains(true) ? true : values.contains(nil) ? (surely ? true : nil) : false
        }
    }
}
