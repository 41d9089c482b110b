/// The transit agency that runs a line, as GTFS `agency.txt` names it: the "none" sentence names
/// it ("<name> currently reports no step-free access at …"), and its zone is kept for the
/// daemon's clock. CTA's own formats (the Customer Alerts API, the app API, the 'L' stops files)
/// name no agency: they are `Agency.cta`.
public struct Agency: Sendable, Equatable {
    /// GTFS `agency_id`; a feed with one agency may leave it out.
    public var id: String?
    /// GTFS `agency_name`.
    public var name: String
    /// GTFS `agency_timezone`: an IANA zone identifier (`America/New_York`).
    public var timeZone: String?
    /// GTFS `agency_lang`: the language of the agency's names (`cs`, `en`), a BCP 47 tag.
    public var language: String?

    public init(id: String?, name: String, timeZone: String?, language: String? = nil) {
        self.id = id
        self.name = name
        self.timeZone = timeZone
        self.language = language
    }

    /// The agency of CTA's own formats.
    public static let cta = Agency(id: nil, name: "CTA", timeZone: "America/Chicago")

    /// How a rider's sheet names the agency: CTA's GTFS feed calls itself "Chicago Transit
    /// Authority", and CTA's sheet says "CTA" whatever the source.
    public var spokenName: String { name == "Chicago Transit Authority" ? Agency.cta.name : name }
}
