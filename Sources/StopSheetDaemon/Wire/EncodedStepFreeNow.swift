import StopSheetCore

/// `accessibilityButton.now`'s bytes, written with `JSONWriter` (no JSON tree: a snapshot encodes
/// one per station), byte for byte what `StepFreeNow.json` encodes to (the encoded-sheet tests
/// compare the two for every station).
extension StepFreeNow {
    var encoded: [UInt8] { .object { $0.members(of: self) } }
}

extension JSONWriter {
    mutating func members(of now: StepFreeNow) {
        member(.stepFree, string: now.stepFree.rawValue)
        member(.basis, string: now.basis.rawValue)
        member(.complete, literal: Self.literal(now.complete))
        array(.platforms) { platforms in
            for platform in now.platforms {
                platforms.elementObject { access in
                    access.member(.stopId, string: platform.stopID)
                    access.member(.name, string: platform.name)
                    access.member(.entry, literal: Self.literal(platform.entry))
                    access.member(.exit, literal: Self.literal(platform.exit))
                }
            }
        }
        array(.outages) { outages in
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

    private static func literal(_ value: Bool?) -> StaticString {
        switch value {
        case true?: return "true"
        case false?: return "false"
        case nil: return "null"
        }
    }
}
