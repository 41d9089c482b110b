import StopSheetCore

/// `accessibilityButton.now` written in place into a sheet being assembled, byte for byte what
/// `StepFreeNow.json` encodes to (the encoded-sheet tests compare the two for every station): a
/// snapshot writes one per station, and a JSON tree per station cost more than the rest of the
/// sheet.
extension JSONWriter {
    mutating func object(_ key: JSONKey, stepFreeNow now: StepFreeNow) {
        object(key) { members in
            members.member(.stepFree, string: now.stepFree.rawValue)
            members.member(.basis, string: now.basis.rawValue)
            members.member(.complete, literal: Self.literal(now.complete))
            members.array(.platforms) { platforms in
                for platform in now.platforms {
                    platforms.elementObject { access in
                        access.member(.stopId, string: platform.stopID)
                        access.member(.name, string: platform.name)
                        access.member(.entry, literal: Self.literal(platform.entry))
                        access.member(.exit, literal: Self.literal(platform.exit))
                    }
                }
            }
            members.array(.outages) { outages in
                for outage in now.outages {
                    outages.elementObject { written in
                        written.member(.alertId, string: outage.alertID)
                        written.member(.facility, string: outage.facility.rawValue)
                        if let id = outage.facilityID { written.member(.facilityId, string: id) } else { written.member(.facilityId, literal: "null") }
                        written.array(.pathways) { pathways in
                            for pathway in outage.pathways { pathways.element(.string(pathway)) }
                        }
                    }
                }
            }
        }
    }

    private static func literal(_ value: Bool?) -> StaticString {
        switch value {
        case true?: return "true"
        case false?: return "false"
        case nil: return "null"
        }
    }
}
